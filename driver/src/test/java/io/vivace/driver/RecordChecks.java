package io.vivace.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** What every run record must hold (docs/run-record.md), and what a successful run shows. */
final class RecordChecks {

  static final List<String> FIELDS = List.of("record_version", "workload", "params", "framework",
      "default_fs", "data_root", "work_root", "phases", "output", "overrides", "configuration",
      "status", "failure", "started_ms", "finished_ms", "data", "validation", "results", "jobs");
  static final List<String> JOB_FIELDS = List.of("phase", "job_id", "name", "status", "submit_ms",
      "start_ms", "finish_ms", "done_ms", "maps", "reduces", "counters", "tasks");
  private static final Set<String> PHASES = Set.of("prepare", "run", "validate");

  private RecordChecks() {}

  /** Exit 0, SUCCEEDED, validation PASSED, and a well-formed record of run-phase jobs. */
  static JsonNode assertSucceeded(DriverRun.Result result, String workload, String framework) {
    JsonNode record = result.record();
    assertNotNull(record, "no record written: " + result.describe());
    assertEquals(0, result.exitCode(), result.describe());
    assertEquals("SUCCEEDED", record.get("status").asText(), record.toPrettyString());
    assertTrue(record.get("failure").isNull(), record.get("failure").toString());
    assertEquals("PASSED", record.at("/validation/status").asText(),
        record.get("validation").toString());
    assertEquals(workload, record.get("workload").asText());
    assertEquals(framework, record.get("framework").asText());
    assertWellFormed(record);
    List<JsonNode> runJobs = jobs(record, "run");
    assertFalse(runJobs.isEmpty(), "no run-phase job recorded");
    for (JsonNode job : runJobs) {
      assertEquals("SUCCEEDED", job.get("status").asText(), job.toString());
      assertTrue(job.at("/counters/" + taskCounterGroup(framework)).isObject(),
          "run job without task counters: " + job.get("counters"));
      assertTrue(job.get("maps").asInt() >= 1, "maps of " + job);
      assertTrue(record.get("started_ms").asLong() <= job.get("submit_ms").asLong(),
          "run phase started after its job was submitted");
      assertTrue(job.get("done_ms").asLong() <= record.get("finished_ms").asLong(),
          "run phase finished before its job was seen done");
    }
    assertEquals(framework, record.at("/configuration/mapreduce.framework.name").asText(),
        "configuration of the first run-phase job");
    return record;
  }

  /** The group of the task counters: MapReduce's, or Tez's for jobs on Tez (from its history). */
  private static String taskCounterGroup(String framework) {
    return framework.equals(TezOnCluster.FRAMEWORK_NAME) ? "org.apache.tez.common.counters.TaskCounter"
        : "org.apache.hadoop.mapreduce.TaskCounter";
  }

  /** Every field there, jobs in known phases with their fields, times in order. */
  static void assertWellFormed(JsonNode record) {
    for (String field : FIELDS) {
      assertTrue(record.has(field), "record without " + field + ": " + record.toPrettyString());
    }
    assertEquals(1, record.get("record_version").asInt());
    if (!record.get("started_ms").isNull()) {
      assertOrdered(record.get("started_ms"), record.get("finished_ms"), "run phase");
    }
    for (JsonNode job : record.get("jobs")) {
      for (String field : JOB_FIELDS) {
        assertTrue(job.has(field), "job without " + field + ": " + job);
      }
      assertTrue(PHASES.contains(job.get("phase").asText()), "phase of " + job);
      assertOrdered(job.get("submit_ms"), job.get("done_ms"), "submit and done of " + job);
      assertOrdered(job.get("start_ms"), job.get("finish_ms"), "start and finish of " + job);
      for (JsonNode task : job.get("tasks")) {
        assertOrdered(task.get("start_ms"), task.get("finish_ms"), "task " + task);
      }
    }
  }

  private static void assertOrdered(JsonNode earlier, JsonNode later, String what) {
    if (!earlier.isNull() && !later.isNull()) {
      assertTrue(earlier.asLong() <= later.asLong(), what + ": " + earlier + " > " + later);
    }
  }

  static List<JsonNode> jobs(JsonNode record, String phase) {
    List<JsonNode> jobs = new ArrayList<>();
    for (JsonNode job : record.get("jobs")) {
      if (job.get("phase").asText().equals(phase)) {
        jobs.add(job);
      }
    }
    return jobs;
  }
}
