package io.vivace.driver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.MRJobConfig;

/** The run record as JSON, in the field order of docs/run-record.md; absent values are null. */
final class RunRecordJson {

  private static final ObjectMapper JSON = new ObjectMapper();

  private RunRecordJson() {}

  /** Writes the record to {@code file} atomically: the file is complete or absent. */
  static void write(RunRecord record, java.nio.file.Path file) throws IOException {
    ObjectNode node = toJson(record);
    AtomicFiles.write(file, out -> JSON.writerWithDefaultPrettyPrinter().writeValue(out, node));
  }

  static ObjectNode toJson(RunRecord record) {
    ObjectNode node = JSON.createObjectNode();
    node.put("record_version", RunRecord.VERSION);
    node.put("workload", record.workload());
    node.set("params", strings(record.params()));
    node.put("framework", record.framework());
    node.put("default_fs", record.defaultFs());
    node.put("data_root", record.dataRoot());
    node.put("work_root", record.workRoot());
    ArrayNode phases = node.putArray("phases");
    record.phases().forEach(phase -> phases.add(phase.label()));
    node.put("output", record.output());
    node.set("overrides", strings(record.overrides()));
    node.set("configuration",
        record.configuration() == null ? null : strings(record.configuration()));
    node.put("status", record.succeeded() ? "SUCCEEDED" : "FAILED");
    node.set("failure", failure(record.failure()));
    node.put("started_ms", record.startedMs());
    node.put("finished_ms", record.finishedMs());
    node.set("data", data(record.data()));
    node.set("validation", validation(record.validation()));
    node.set("results", JSON.valueToTree(record.results()));
    ArrayNode jobs = node.putArray("jobs");
    for (PhaseJob job : record.jobs()) {
      jobs.add(job(job));
    }
    return node;
  }

  private static ObjectNode strings(Map<String, String> map) {
    ObjectNode node = JSON.createObjectNode();
    map.forEach(node::put);
    return node;
  }

  private static JsonNode failure(RunRecord.Failure failure) {
    if (failure == null) {
      return null;
    }
    ObjectNode node = JSON.createObjectNode();
    node.put("phase", failure.phase().label());
    node.put("message", failure.message());
    return node;
  }

  private static JsonNode data(PreparedData data) {
    if (data == null) {
      return null;
    }
    ObjectNode node = JSON.createObjectNode();
    node.put("path", data.path().toString());
    node.put("requested_bytes", data.requestedBytes());
    node.put("actual_bytes", data.actualBytes());
    node.put("reused", data.reused());
    node.put("checksum", data.checksum());
    return node;
  }

  private static JsonNode validation(Validation validation) {
    ObjectNode node = JSON.createObjectNode();
    node.put("status", validation.status().name());
    node.put("detail", validation.detail());
    node.put("output_checksum", validation.outputChecksum());
    node.put("output_bytes", validation.outputBytes());
    return node;
  }

  private static ObjectNode job(PhaseJob phaseJob) {
    RecordedJob job = phaseJob.job();
    JobStatus status = finalStatus(job);
    SubmittedConfiguration conf = job.configuration();
    ObjectNode node = JSON.createObjectNode();
    node.put("phase", phaseJob.phase().label());
    node.put("job_id", job.id().toString());
    String name = status == null ? null : status.getJobName();
    if ((name == null || name.isEmpty()) && conf != null) {
      name = conf.values().get(MRJobConfig.JOB_NAME);
    }
    node.put("name", name);
    node.put("status", status == null ? null : status.getState().name());
    node.put("submit_ms", job.submitMs());
    node.put("start_ms", status == null ? null : timeOrNull(job::startMs));
    node.put("finish_ms", status == null ? null : timeOrNull(job::finishMs));
    node.put("done_ms", job.doneMs());
    node.put("maps", conf == null ? null : conf.intValue(MRJobConfig.NUM_MAPS));
    node.put("reduces", conf == null ? null : conf.intValue(MRJobConfig.NUM_REDUCES));
    node.set("counters", counters(job));
    ArrayNode tasks = node.putArray("tasks");
    for (TaskSnapshot task : job.tasks()) {
      ObjectNode taskNode = tasks.addObject();
      taskNode.put("task_id", task.taskId());
      taskNode.put("type", task.type().name());
      taskNode.put("status", task.status());
      taskNode.put("start_ms", task.startMs());
      taskNode.put("finish_ms", task.finishMs());
    }
    return node;
  }

  /** A time the job reports, null when it cannot say. */
  private interface JobTime {
    Long get() throws Exception;
  }

  private static Long timeOrNull(JobTime time) {
    try {
      return time.get();
    } catch (Exception e) {
      return null;
    }
  }

  private static JobStatus finalStatus(RecordedJob job) {
    try {
      return job.status();
    } catch (Exception e) {
      return null;
    }
  }

  private static JsonNode counters(RecordedJob job) {
    Counters counters;
    try {
      counters = job.counters();
    } catch (Exception e) {
      return null;
    }
    ObjectNode node = JSON.createObjectNode();
    for (CounterGroup group : counters) {
      ObjectNode groupNode = node.putObject(group.getName());
      for (Counter counter : group) {
        groupNode.put(counter.getName(), counter.getValue());
      }
    }
    return node;
  }
}
