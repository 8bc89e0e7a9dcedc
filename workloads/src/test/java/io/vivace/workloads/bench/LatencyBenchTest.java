package io.vivace.workloads.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The bench runs on Vivace and on Apache's local runner and reports sane numbers (no timing limits). */
class LatencyBenchTest {

  @TempDir
  Path tmp;

  /**
   * Apache's LocalJobRunner removes a job's staging directory in its own thread, possibly after the
   * client saw the job finish; so staging lives outside {@code tmp}, removed best-effort afterwards.
   */
  private Path staging;

  @BeforeEach
  void createStaging() throws java.io.IOException {
    staging = java.nio.file.Files.createTempDirectory("vivace-test-staging");
  }

  @AfterEach
  void removeStaging() {
    org.apache.hadoop.fs.FileUtil.fullyDelete(staging.toFile());
  }

  @ParameterizedTest
  @ValueSource(strings = {"vivace", "local"})
  void measuresEveryRunAndTheSleepJob(String framework) throws Exception {
    Path json = tmp.resolve("latency.json");
    String[] args = {"-warmup", "2", "-runs", "5", "-m", "7", "-r", "2", "-json", json.toString()};

    assertEquals(0, ToolRunner.run(conf(framework), new LatencyBench(), args));

    JsonNode result = new ObjectMapper().readTree(json.toFile());
    assertEquals(framework, result.get("framework").asText());
    assertEquals(io.vivace.workloads.CompletionPoll.MILLIS, result.get("completion_poll_ms").asInt());
    JsonNode empty = result.get("empty_job");
    assertEquals(5, empty.get("runs").asInt());
    assertEquals(5, empty.get("latencies_ms").size());
    empty.get("latencies_ms").forEach(ms -> assertTrue(ms.asDouble() > 0, "latency " + ms));
    double min = empty.get("min_ms").asDouble();
    double median = empty.get("median_ms").asDouble();
    double p90 = empty.get("p90_ms").asDouble();
    double max = empty.get("max_ms").asDouble();
    assertTrue(0 < min && min <= median && median <= p90 && p90 <= max, empty.toString());
    assertTrue(empty.get("submit_median_ms").asDouble() > 0);
    JsonNode sleep = result.get("sleep_job");
    assertEquals(7, sleep.get("maps").asInt());
    assertEquals(2, sleep.get("reduces").asInt());
    // the rate is the tasks run over the time they took, both recorded
    assertEquals(9 / sleep.get("seconds").asDouble(), sleep.get("tasks_per_s").asDouble(), 1e-6);
  }

  @Test
  void noMapsMeansNoSleepJob() throws Exception {
    Path json = tmp.resolve("latency.json");
    String[] args = {"-warmup", "0", "-runs", "2", "-m", "0", "-json", json.toString()};

    assertEquals(0, ToolRunner.run(conf("vivace"), new LatencyBench(), args));

    JsonNode result = new ObjectMapper().readTree(json.toFile());
    assertEquals(2, result.get("empty_job").get("latencies_ms").size());
    assertNull(result.get("sleep_job"), result.toString());
    assertNull(LatencyBench.parse(new String[] {"-m", "-1"}, "vivace"));
  }

  @Test
  void keepsTheUsersPollInterval() throws Exception {
    Configuration conf = conf("vivace");
    conf.setInt(io.vivace.workloads.CompletionPoll.KEY, 7);
    LatencyBench bench = new LatencyBench();
    bench.setConf(conf);

    LatencyBench.Result result = bench.measure(new LatencyBench.Options(0, 1, 1, 0, null));

    assertEquals(7, result.pollMillis());
    assertTrue(result.pollSetByUser());
    assertEquals(1, result.latencyMs().size());
  }

  @Test
  void defaultMapsDependOnTheFrameworkAndBadArgumentsAreRejected() {
    assertEquals(LatencyBench.VIVACE_DEFAULT_MAPS, LatencyBench.parse(new String[0], "vivace").maps());
    assertEquals(LatencyBench.OTHER_DEFAULT_MAPS, LatencyBench.parse(new String[0], "local").maps());
    assertNull(LatencyBench.parse(new String[] {"-runs"}, "vivace"));
    assertNull(LatencyBench.parse(new String[] {"-runs", "0"}, "vivace"));
    assertNull(LatencyBench.parse(new String[] {"-bogus", "1"}, "vivace"));
  }

  @Test
  void summaryUsesNearestRankPercentiles() {
    LatencySummary s = LatencySummary.of(List.of(5.0, 1.0, 4.0, 2.0, 3.0, 6.0, 7.0, 8.0, 9.0, 10.0));
    assertEquals(1.0, s.min());
    assertEquals(5.5, s.median());
    assertEquals(9.0, s.p90());
    assertEquals(10.0, s.max());
  }

  private Configuration conf(String framework) {
    Configuration conf = new Configuration();
    conf.set("mapreduce.framework.name", framework);
    conf.set("hadoop.tmp.dir", tmp.toString());
    conf.set("mapreduce.jobtracker.staging.root.dir", staging.toString());
    conf.set("vivace.history.dir", tmp.resolve("history").toString());
    return conf;
  }
}
