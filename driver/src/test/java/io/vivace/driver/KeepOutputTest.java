package io.vivace.driver;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** With --keep-output the run's outputs stay under the work root (without, they go). */
class KeepOutputTest {

  private Path scratch;

  @BeforeEach
  void createScratch() throws Exception {
    scratch = DriverRun.tempDir("keep");
  }

  @AfterEach
  void removeScratch() {
    DriverRun.deleteQuietly(scratch);
  }

  @Test
  void keepsTheOutputsOnRequest() throws Exception {
    Path record = scratch.resolve("record.json");
    Path work = scratch.resolve("work");
    DriverRun.Result result = DriverRun.run(DriverRun.conf(scratch.resolve("hadoop")),
        new BenchDriver(), record, DriverRun.concat(
            new String[] {"-D", "mapreduce.framework.name=vivace"},
            DriverRun.args("terasort", record, scratch.resolve("data"), work,
                "--param", "rows=1000", "--validate-framework", "vivace", "--keep-output")));
    RecordChecks.assertSucceeded(result, "terasort", "vivace");
    assertTrue(Files.exists(work.resolve("terasort-out").resolve("part-r-00000")),
        "terasort's output kept");
    assertTrue(Files.exists(work.resolve("teravalidate")), "teravalidate's report kept");
  }
}
