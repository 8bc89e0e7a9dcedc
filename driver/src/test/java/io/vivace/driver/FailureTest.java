package io.vivace.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vivace.driver.workloads.Workloads;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A run that fails, in any phase, exits 1 with a record that names the phase and why; a run whose
 * output does not validate never reports SUCCEEDED.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class FailureTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private java.nio.file.Path scratch;
  private java.nio.file.Path record;

  @BeforeEach
  void createScratch() throws Exception {
    scratch = DriverRun.tempDir("failure");
    record = scratch.resolve("record.json");
  }

  @AfterEach
  void removeScratch() {
    DriverRun.deleteQuietly(scratch);
  }

  private DriverRun.Result run(BenchDriver driver, String framework, String workload,
      String... extra) throws Exception {
    Files.deleteIfExists(record);
    return DriverRun.run(DriverRun.conf(scratch.resolve("hadoop")), driver, record,
        DriverRun.concat(new String[] {"-D", "mapreduce.framework.name=" + framework},
            DriverRun.args(workload, record, scratch.resolve("data"), scratch.resolve("work"),
                extra)));
  }

  /** Exit 1, a well-formed record saying FAILED in {@code phase} with a message containing text. */
  private static JsonNode assertFailed(DriverRun.Result result, String phase, String text) {
    JsonNode record = result.record();
    assertNotNull(record, "no record: " + result.describe());
    assertEquals(BenchDriver.FAILED, result.exitCode(), result.describe());
    assertEquals("FAILED", record.get("status").asText());
    assertEquals(phase, record.at("/failure/phase").asText(), record.get("failure").toString());
    assertTrue(record.at("/failure/message").asText().contains(text),
        "expected '" + text + "' in " + record.get("failure"));
    RecordChecks.assertWellFormed(record);
    return record;
  }

  @Test
  void terasortWithAnotherInputChecksumFailsValidation() throws Exception {
    RecordChecks.assertSucceeded(run(new BenchDriver(), "vivace", "terasort", "--param",
        "rows=1000", "--validate-framework", "vivace"), "terasort", "vivace");
    java.nio.file.Path marker =
        scratch.resolve("data/teragen-rows=1000-maps=2").resolve(DataMarker.FILE_NAME);
    ObjectNode json = (ObjectNode) JSON.readTree(marker.toFile());
    json.put("checksum", "terasum:123abc");
    Files.writeString(marker, json.toString());
    Files.deleteIfExists(marker.resolveSibling("." + DataMarker.FILE_NAME + ".crc"));

    JsonNode failed = assertFailed(run(new BenchDriver(), "vivace", "terasort", "--param",
        "rows=1000", "--validate-framework", "vivace"), "validate",
        "differs from the input's terasum:123abc");
    assertEquals("FAILED", failed.at("/validation/status").asText());
    assertTrue(failed.at("/validation/output_checksum").asText().startsWith("sha256:"),
        "the output is still described: " + failed.get("validation"));
    assertEquals(100_000, failed.at("/validation/output_bytes").asLong());
  }

  @Tag("slow")
  @Test
  void wordcountWithCorruptedOutputFailsValidation() throws Exception {
    BenchDriver driver = new BenchDriver((name, params) ->
        new OutputCorruptingWorkload(Workloads.create(name, params), "wordcount-out",
            (fs, output) -> appendLine(fs, new Path(output, "part-r-00000"), "zzzz\t1")));
    JsonNode failed = assertFailed(run(driver, "vivace", "wordcount", "--param", "bytes=50000"),
        "validate", "counts sum to");
    assertEquals("FAILED", failed.at("/validation/status").asText());
    assertEquals("SUCCEEDED", RecordChecks.jobs(failed, "run").get(0).get("status").asText());
  }

  @Test
  void sortWithAPartMissingFailsSortValidator() throws Exception {
    BenchDriver driver = new BenchDriver((name, params) ->
        new OutputCorruptingWorkload(Workloads.create(name, params), "sort-out",
            FailureTest::deleteTheLargestPart));
    JsonNode failed = assertFailed(run(driver, "vivace", "sort", "--param", "bytes=50000",
        "--param", "reduces=2"), "validate", "IOException");
    assertEquals("FAILED", failed.at("/validation/status").asText());
    assertFalse(RecordChecks.jobs(failed, "validate").isEmpty(), "SortValidator's job recorded");
  }

  @Test
  void generationOnTheLocalRunnerWithSeveralMapsFailsPrepare() throws Exception {
    JsonNode failed = assertFailed(run(new BenchDriver(), "vivace", "terasort", "--param",
        "rows=1000", "--prepare-framework", "local"), "prepare",
        "forces mapreduce.job.maps=1");
    assertEquals("SKIPPED", failed.at("/validation/status").asText());
    assertTrue(failed.get("started_ms").isNull(), "the run phase never started");
    assertTrue(failed.get("configuration").isNull());
    assertEquals(1, RecordChecks.jobs(failed, "prepare").size(), "teragen ran");
  }

  @Test
  void anUnknownFrameworkFailsTheRun() throws Exception {
    JsonNode failed = assertFailed(run(new BenchDriver(), "nosuch", "sleep"), "run",
        "mapreduce.framework.name=nosuch");
    assertEquals("SKIPPED", failed.at("/validation/status").asText());
    assertFalse(failed.get("started_ms").isNull());
    assertTrue(failed.get("jobs").isEmpty());
  }

  /**
   * Deletes the output's largest part: 50,000 bytes of RandomWriter's records are a handful, so a
   * given part of two can hold none, and losing it would lose nothing.
   */
  private static void deleteTheLargestPart(FileSystem fs, Path output) throws Exception {
    FileStatus largest = Arrays.stream(fs.listStatus(output, p -> p.getName().startsWith("part-")))
        .max(Comparator.comparingLong(FileStatus::getLen)).orElseThrow();
    assertTrue(fs.delete(largest.getPath(), false), "deleted " + largest.getPath());
  }

  private static void appendLine(FileSystem fs, Path file, String line) throws Exception {
    java.nio.file.Path local = java.nio.file.Path.of(file.toUri());
    Files.writeString(local, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    Files.deleteIfExists(local.resolveSibling("." + local.getFileName() + ".crc"));
  }

  /** Corrupts one output of a real workload after its run, the way a faulty engine could. */
  private static final class OutputCorruptingWorkload implements Workload {
    interface Corruption {
      void apply(FileSystem fs, Path output) throws Exception;
    }

    private final Workload workload;
    private final String outputName;
    private final Corruption corruption;

    OutputCorruptingWorkload(Workload workload, String outputName, Corruption corruption) {
      this.workload = workload;
      this.outputName = outputName;
      this.corruption = corruption;
    }

    @Override
    public String name() {
      return workload.name();
    }

    @Override
    public Params params() {
      return workload.params();
    }

    @Override
    public InputData input() {
      return workload.input();
    }

    @Override
    public void run(WorkloadContext ctx) throws Exception {
      workload.run(ctx);
      Path output = ctx.workPath(outputName);
      corruption.apply(output.getFileSystem(new Configuration()), output);
    }

    @Override
    public Validation validate(WorkloadContext ctx) throws Exception {
      return workload.validate(ctx);
    }
  }
}
