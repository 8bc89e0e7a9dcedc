package io.vivace.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A command line the driver cannot run: exit 2, a message naming the problem, no record. */
class UsageTest {

  private Path scratch;
  private Path record;

  @BeforeEach
  void createScratch() throws Exception {
    scratch = DriverRun.tempDir("usage");
    record = scratch.resolve("record.json");
  }

  @AfterEach
  void removeScratch() {
    DriverRun.deleteQuietly(scratch);
  }

  private void assertBadUsage(String expectedMessage, String... args) throws Exception {
    DriverRun.Result result =
        DriverRun.run(DriverRun.conf(scratch.resolve("hadoop")), new BenchDriver(), record, args);
    assertEquals(BenchDriver.BAD_USAGE, result.exitCode(), result.describe());
    assertTrue(result.stderr().contains(expectedMessage),
        "expected '" + expectedMessage + "' in:\n" + result.stderr());
    assertFalse(Files.exists(record), "a bad command line writes no record");
  }

  private String[] valid(String workload, String... extra) {
    return DriverRun.args(workload, record, scratch.resolve("data"), scratch.resolve("work"),
        extra);
  }

  @Test
  void unknownWorkload() throws Exception {
    assertBadUsage("unknown workload 'nosuch' (known: sleep, terasort, wordcount, sort,"
        + " dfsio-write, dfsio-read, plasma-sort, finra-query, finra-concurrency, kmeans,"
        + " pagerank, bayes, swim)", valid("nosuch"));
  }

  @Test
  void unknownParam() throws Exception {
    assertBadUsage("unknown param 'rowz' for workload terasort (known: rows, maps, reduces)",
        valid("terasort", "--param", "rowz=5"));
  }

  @Test
  void malformedParamValues() throws Exception {
    assertBadUsage("malformed value for param rows of workload terasort: '10k'",
        valid("terasort", "--param", "rows=10k"));
    assertBadUsage("malformed value for param maps of workload sleep: '0' (an integer >= 1)",
        valid("sleep", "--param", "maps=0"));
    assertBadUsage("malformed --param 'maps'", valid("sleep", "--param", "maps"));
    assertBadUsage("param maps given twice",
        valid("sleep", "--param", "maps=1", "--param", "maps=2"));
  }

  @Test
  void missingOrUnknownOptions() throws Exception {
    assertBadUsage("--record is required", "--workload", "sleep", "--data-root", "/d",
        "--work-root", "/w");
    assertBadUsage("unknown option: --bogus", valid("sleep", "--bogus"));
    assertBadUsage("generic options go before the driver's own", valid("sleep", "-D", "a=b"));
    assertBadUsage("--workload needs a value", "--workload");
  }

  @Test
  void unusableRootsAndFrameworks() throws Exception {
    assertBadUsage("cannot use --work-root 'nosuchscheme://x/y'", "--workload", "sleep",
        "--record", record.toString(), "--data-root", "/d", "--work-root", "nosuchscheme://x/y");
    assertBadUsage("mapreduce.framework.name names the recorder",
        DriverRun.concat(new String[] {"-D", "mapreduce.framework.name=vivace-bench-recorder"},
            valid("sleep")));
    assertBadUsage("TestDFSIO works on the default file system (hdfs://localhost:1)",
        DriverRun.concat(new String[] {"-D", "fs.defaultFS=hdfs://localhost:1"},
            valid("dfsio-write")));
  }

  @Test
  void phasesAndOutput() throws Exception {
    assertBadUsage("unknown phase 'check' in --phases prepare,check",
        valid("terasort", "--phases", "prepare,check"));
    assertBadUsage("phase run given twice", valid("terasort", "--phases", "run,run"));
    assertBadUsage("--phases validate without run needs --output",
        valid("terasort", "--phases", "prepare,validate"));
    assertBadUsage("--output names an output to validate",
        valid("terasort", "--output", "/elsewhere"));
    assertBadUsage("sleep writes no output: --output does not apply",
        valid("sleep", "--phases", "validate", "--output", "/elsewhere"));
  }

  @Test
  void helpIsNoError() throws Exception {
    DriverRun.Result result = DriverRun.run(DriverRun.conf(scratch.resolve("hadoop")),
        new BenchDriver(), record, "--help");
    assertEquals(0, result.exitCode(), result.describe());
  }

  @Test
  void swimTraceMissingMalformedOrTooLargeForThePool() throws Exception {
    assertBadUsage("workload swim needs --param trace=VALUE: the SWIM trace file", valid("swim"));
    assertBadUsage("the public traces are in https://github.com/SWIMProjectUCB/SWIM",
        valid("swim"));
    assertBadUsage("the public traces are in https://github.com/SWIMProjectUCB/SWIM",
        valid("swim", "--param", "trace=" + scratch.resolve("none.tsv")));
    Path trace = scratch.resolve("trace.tsv");
    Files.writeString(trace, "job0\t9\t9\t1762\t0\t14347\njob1\t18\t9\t970\t609\n");
    assertBadUsage(trace + ":2: 5 tab-separated columns, expected at least 6",
        valid("swim", "--param", "trace=" + trace));
    // 53088744165 bytes x 1e-4 = 5308874 bytes; 1 MiB partitions hold 892700: 6 needed
    Files.writeString(trace, "job2\t20\t2\t53088744165\t1510005522\t5759777\n");
    assertBadUsage("use at least 6 pool partitions", valid("swim", "--param", "trace=" + trace,
        "--param", "scale_factor=1e-4", "--param", "block_size=1048576",
        "--param", "pool_partitions=5"));
    assertBadUsage("malformed value for param gap_compression of workload swim: 'fast'",
        valid("swim", "--param", "trace=" + trace, "--param", "gap_compression=fast"));
    assertBadUsage("malformed value for param gap_compression of workload swim: '0' (a number"
        + " >= 0.001)", valid("swim", "--param", "trace=" + trace, "--param", "gap_compression=0"));
  }
}
