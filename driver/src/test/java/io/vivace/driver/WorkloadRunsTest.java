package io.vivace.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every workload end to end through the driver, first on Vivace, then on Apache's LocalJobRunner
 * with the same data root: both succeed with a well-formed record, the second reuses the input the
 * first generated, and where the output is deterministic both report the same output checksum.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class WorkloadRunsTest {

  private static final Set<String> DETERMINISTIC_OUTPUT = Set.of("terasort", "wordcount", "sort",
      "plasma-sort", "finra-query", "finra-concurrency");

  private Path scratch;

  @BeforeAll
  void createScratch() throws Exception {
    scratch = DriverRun.tempDir("workloads");
  }

  @AfterAll
  void removeScratch() {
    DriverRun.deleteQuietly(scratch);
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(delimiter = '|', value = {
      "sleep       | maps=3",
      "sleep       | maps=2 map_ms=0",
      "terasort    | rows=2000 reduces=2",
      "wordcount   | bytes=200000 reduces=2",
      "sort        | bytes=200000 reduces=2",
      "plasma-sort | bytes=200000 reduces=5",
      "finra-concurrency | bytes=100000 streams=2 queries=2",
      "dfsio-write | files=2 file_mb=1",
      "dfsio-read  | files=2 file_mb=1",
  })
  void runsOnVivaceAndLocal(String workload, String params) throws Exception {
    runsOnBoth(workload, params);
  }

  /** The workloads of several jobs or of a slow generator: over the unit tier's 10 s each. */
  @Tag("slow")
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(delimiter = '|', value = {
      "finra-query | bytes=300000",
      "kmeans      | samples=3000 iterations=2",
      "pagerank    | pages=300 iterations=2",
      "bayes       | pages=300 classes=3",
  })
  void slowWorkloadsRunOnVivaceAndLocal(String workload, String params) throws Exception {
    runsOnBoth(workload, params);
  }

  private void runsOnBoth(String workload, String params) throws Exception {
    String name = workload + "-" + params.replace(' ', '-').replace('=', '_');
    JsonNode vivace = run(name, workload, params, "vivace");
    JsonNode local = run(name, workload, params, "local");

    for (JsonNode record : List.of(vivace, local)) {
      for (String param : params.split(" ")) {
        String[] keyValue = param.split("=");
        assertEquals(keyValue[1], record.at("/params/" + keyValue[0]).asText(), "param " + param);
      }
      assertEquals("file:///", record.get("default_fs").asText());
      assertEquals(record.get("framework").asText(),
          record.at("/overrides/mapreduce.framework.name").asText(), "the -D given");
      assertFalse(Files.exists(Path.of(java.net.URI.create(record.get("work_root").asText()))),
          "outputs under the work root removed");
    }
    for (JsonNode job : RecordChecks.jobs(vivace, "run")) {
      assertFalse(job.get("tasks").isEmpty(), "Vivace reports tasks: " + job);
      for (JsonNode task : job.get("tasks")) {
        assertEquals("SUCCEEDED", task.get("status").asText(), task.toString());
      }
    }
    for (JsonNode job : RecordChecks.jobs(local, "run")) {
      assertTrue(job.get("tasks").isEmpty(), "the LocalJobRunner keeps no task reports: " + job);
    }

    JsonNode data = vivace.get("data");
    if (!data.isNull()) {
      assertFalse(data.get("reused").asBoolean(), "the first run generates: " + data);
      assertTrue(local.at("/data/reused").asBoolean(), "the second reuses: " + local.get("data"));
      assertEquals(data.get("checksum"), local.at("/data/checksum"));
      assertEquals(data.get("actual_bytes"), local.at("/data/actual_bytes"));
      assertFalse(RecordChecks.jobs(vivace, "prepare").isEmpty(), "generation jobs recorded");
      assertTrue(RecordChecks.jobs(local, "prepare").isEmpty(), "reuse runs no job");
      assertTrue(data.get("actual_bytes").asLong() >= data.get("requested_bytes").asLong(),
          data.toString());
    }
    if (DETERMINISTIC_OUTPUT.contains(workload)) {
      String checksum = vivace.at("/validation/output_checksum").asText();
      assertTrue(checksum.startsWith("sha256:"), checksum);
      assertEquals(checksum, local.at("/validation/output_checksum").asText(),
          "output checksum, vivace vs local");
      assertEquals(vivace.at("/validation/output_bytes"), local.at("/validation/output_bytes"));
    }
    if (workload.equals("plasma-sort")) {
      for (JsonNode record : List.of(vivace, local)) {
        JsonNode cpu = record.at("/results/cpu");
        assertTrue(cpu.get("cpu_s").asDouble() > 0 && cpu.get("wall_s").asDouble() > 0,
            cpu.toString());
        assertEquals(cpu.get("cpu_s").asDouble() / 200_000 * 1e9,
            cpu.get("cpu_s_per_gb").asDouble(), 1e-6, cpu.toString());
      }
    }
    if (workload.equals("pagerank")) {
      for (JsonNode record : List.of(vivace, local)) {
        assertEquals(2, RecordChecks.jobs(record, "run").size(), "one job per iteration");
      }
    }
    if (workload.equals("bayes")) {
      for (JsonNode record : List.of(vivace, local)) {
        assertTrue(record.at("/validation/detail").asText().startsWith("bayes: a model of 3 labels"),
            record.get("validation").toString());
      }
    }
    if (workload.equals("kmeans")) {
      for (JsonNode record : List.of(vivace, local)) {
        assertEquals(2, record.at("/results/kmeans/iterations").asInt(), record.toString());
        assertEquals(2, RecordChecks.jobs(record, "run").size(), "one job per iteration");
      }
    }
    if (workload.equals("finra-concurrency")) {
      for (JsonNode record : List.of(vivace, local)) {
        JsonNode finra = record.at("/results/finra");
        assertEquals(4, finra.get("queries").asInt(), finra.toString());
        assertEquals(finra.get("concurrent_mean_s").asDouble() / finra.get("isolated_s").asDouble(),
            finra.get("ratio").asDouble(), 1e-9, finra.toString());
        assertEquals(7, RecordChecks.jobs(record, "run").size(), "3 isolated + 2 x 2 queries");
      }
    }
    if (workload.startsWith("dfsio")) {
      for (JsonNode record : List.of(vivace, local)) {
        JsonNode dfsio = record.at("/results/dfsio");
        assertEquals(2, dfsio.get("files").asInt(), dfsio.toString());
        assertEquals(2L << 20, dfsio.get("bytes").asLong(), dfsio.toString());
        assertTrue(dfsio.get("job_wall_ms").asLong() > 0, dfsio.toString());
        assertTrue(dfsio.has("throughput_mb_s") && dfsio.has("avg_io_rate_mb_s")
            && dfsio.has("io_rate_std_dev_mb_s") && dfsio.has("aggregate_bandwidth_mb_s"),
            dfsio.toString());
      }
    }
  }

  private JsonNode run(String name, String workload, String params, String framework)
      throws Exception {
    Path record = scratch.resolve("records").resolve(name + "-" + framework + ".json");
    String[] args = DriverRun.args(workload, record, scratch.resolve("data"),
        scratch.resolve("work").resolve(name + "-" + framework));
    for (String param : params.split(" ")) {
      args = DriverRun.concat(args, "--param", param);
    }
    DriverRun.Result result = DriverRun.run(DriverRun.conf(scratch.resolve("hadoop")),
        new BenchDriver(), record,
        DriverRun.concat(new String[] {"-D", "mapreduce.framework.name=" + framework}, args));
    JsonNode json = RecordChecks.assertSucceeded(result, workload, framework);
    assertNotNull(json.at("/validation/detail").asText(null));
    return json;
  }
}
