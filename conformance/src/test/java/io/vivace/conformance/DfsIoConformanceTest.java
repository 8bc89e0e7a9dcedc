package io.vivace.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.fs.TestDFSIO;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TestDFSIO (jobclient tests jar; an old-API job driven by JobClient.runJob) on the local file
 * system: {@code -write} then {@code -read} of 2 files of 1 MB on the framework under test.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DfsIoConformanceTest {

  private static final int FILES = 2;
  private static final long MB = 1024 * 1024;

  @Test
  void writeThenRead(@TempDir Path tmp) throws Exception {
    String fut = Frameworks.underTest();
    Path base = tmp.resolve("benchmarks");
    Path resFile = tmp.resolve("TestDFSIO_results.log");
    // Generic options must precede the tool's own (GenericOptionsParser stops at the first other).
    String generic = "test.build.data=" + base;
    String[] common = {"-nrFiles", Integer.toString(FILES), "-size", "1MB",
        "-resFile", resFile.toString()};

    Runs.Result write = Runs.tool(fut, tmp.resolve("scratch-write"), new TestDFSIO(),
        args(generic, "-write", common)).assertSucceeded();
    String what = "TestDFSIO -write on " + fut;
    for (int i = 0; i < FILES; i++) {
      Path data = base.resolve("io_data").resolve("test_io_" + i);
      assertTrue(Files.isRegularFile(data), what + ": " + data + " not written");
      assertEquals(MB, Files.size(data), what + ": size of " + data);
    }
    checkJob(what, write.counters(), base.resolve("io_write"));
    String afterWrite = Files.readString(resFile, StandardCharsets.UTF_8);
    checkResult(what, afterWrite, "write");

    Runs.Result read = Runs.tool(fut, tmp.resolve("scratch-read"), new TestDFSIO(),
        args(generic, "-read", common)).assertSucceeded();
    what = "TestDFSIO -read on " + fut;
    checkJob(what, read.counters(), base.resolve("io_read"));
    String all = Files.readString(resFile, StandardCharsets.UTF_8);
    assertTrue(all.startsWith(afterWrite), what + ": the result file is appended to");
    checkResult(what, all.substring(afterWrite.length()), "read");
  }

  private static void checkJob(String what, Counters c, Path outDir) throws Exception {
    OutputDirs.assertCommitted(outDir, what);
    // Old-API output: part-00000 from the single AccumulatingReducer.
    assertEquals(List.of("part-00000"), OutputDirs.partNames(outDir), what + ": reduce output");
    assertEquals(FILES, CounterChecks.value(c, TaskCounter.MAP_INPUT_RECORDS),
        what + ": one control record per file");
    assertEquals(1, OutputDirs.readPartLines(outDir).stream()
        .filter(l -> l.startsWith("l:tasks\t")).count(), what + ": tasks line");
    assertTrue(OutputDirs.readPartLines(outDir).contains("l:tasks\t" + FILES),
        what + ": reduce output " + OutputDirs.readPartLines(outDir));
    assertTrue(OutputDirs.readPartLines(outDir).contains("l:size\t" + FILES * MB),
        what + ": reduce output " + OutputDirs.readPartLines(outDir));
  }

  private static void checkResult(String what, String section, String type) {
    assertTrue(section.contains("----- TestDFSIO ----- : " + type), what + ": result\n" + section);
    assertTrue(section.contains("Number of files: " + FILES), what + ": result\n" + section);
    assertTrue(section.contains("Total MBytes processed: " + FILES), what + ": result\n" + section);
  }

  private static String[] args(String define, String test, String[] rest) {
    String[] out = new String[rest.length + 3];
    out[0] = "-D";
    out[1] = define;
    out[2] = test;
    System.arraycopy(rest, 0, out, 3, rest.length);
    return out;
  }
}
