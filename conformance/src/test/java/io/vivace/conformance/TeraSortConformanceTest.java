package io.vivace.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.hadoop.examples.terasort.TeraChecksum;
import org.apache.hadoop.examples.terasort.TeraGen;
import org.apache.hadoop.examples.terasort.TeraSort;
import org.apache.hadoop.examples.terasort.TeraValidate;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * teragen, terasort and teravalidate: the framework under test and LocalJobRunner generate the same
 * rows, sort the same input into identical part files, and the framework under test's sorted output
 * validates with the generator's checksum. Slow: the fast tier runs terasort in
 * {@link MapOutputCompressionConformanceTest} and teragen, terasort and teravalidate through the
 * bench driver's terasort workload on both frameworks (the driver's WorkloadRunsTest).
 */
@Tag("slow")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TeraSortConformanceTest {

  private static final long ROWS = 200_000;
  private static final int ROW_BYTES = 100;
  private static final int MAPS = 3;
  private static final int REDUCES = 2;
  private static final String PARTITION_FILE = "_partition.lst";

  @TempDir Path tmp;

  /**
   * TeraSort's partitioner opens {@value #PARTITION_FILE} relative to the JVM's working directory,
   * where Apache's LocalJobRunner symlinks the distributed-cache file and removes the link when the
   * job ends. A link left by a killed run would be reused silently (or, dangling, block a new one),
   * so remove a stale one first.
   */
  @BeforeEach
  void removeStalePartitionLink() throws IOException {
    Path link = Paths.get(System.getProperty("user.dir"), PARTITION_FILE);
    if (Files.isSymbolicLink(link)) {
      Files.delete(link);
    }
  }

  @Test
  void teragenTerasortTeravalidate() throws Exception {
    String fut = Frameworks.underTest();
    String ref = Frameworks.REFERENCE;

    // --- teragen: same rows, whatever the number of maps -------------------------------------
    String[] genOptions = {"-D", "mapreduce.job.maps=" + MAPS};
    Path genRef = tmp.resolve("teragen-ref");
    Path genFut = tmp.resolve("teragen-fut");
    Runs.Result genRefRun = Runs.tool(ref, tmp.resolve("scratch-gen-ref"), new TeraGen(),
        concat(genOptions, Long.toString(ROWS), genRef.toString())).assertSucceeded();
    Runs.Result genFutRun = Runs.tool(fut, tmp.resolve("scratch-gen-fut"), new TeraGen(),
        concat(genOptions, Long.toString(ROWS), genFut.toString())).assertSucceeded();

    String what = "teragen " + ROWS + " rows (" + fut + " vs " + ref + ")";
    OutputDirs.assertCommitted(genRef, what + ", reference");
    OutputDirs.assertCommitted(genFut, what + ", under test");
    assertEquals(OutputDirs.expectedPartNames('m', Frameworks.expectedMaps(ref, MAPS)),
        OutputDirs.partNames(genRef), what + ": reference part files (local forces one map)");
    assertEquals(OutputDirs.expectedPartNames('m', Frameworks.expectedMaps(fut, MAPS)),
        OutputDirs.partNames(genFut),
        what + ": part files of the framework under test (-D mapreduce.job.maps=" + MAPS + ")");
    List<Path> genFutParts = OutputDirs.partFiles(genFut);
    assertEquals(ROWS * ROW_BYTES, OutputDirs.totalSize(genFutParts), what + ": bytes written");
    // TeraGen's rows depend only on the row number, so the concatenation in name order is fixed.
    OutputDirs.assertSameBytes(OutputDirs.partFiles(genRef), genFutParts,
        what + ": concatenated part files");
    Counters genRefCounters = genRefRun.counters();
    Counters genFutCounters = genFutRun.counters();
    CounterChecks.assertAgree(what, ref, genRefCounters, fut, genFutCounters);
    assertEquals(ROWS, CounterChecks.value(genFutCounters, TaskCounter.MAP_INPUT_RECORDS),
        what + ": map input records");
    assertEquals(ROWS, CounterChecks.value(genFutCounters, TaskCounter.MAP_OUTPUT_RECORDS),
        what + ": map output records");
    long genChecksum = CounterChecks.value(genFutCounters, TeraGen.Counters.CHECKSUM);
    assertTrue(genChecksum != 0, what + ": TeraGen's CHECKSUM counter is missing");

    // --- terasort: both frameworks sort the same input -----------------------------------------
    String[] sortOptions = {"-D", "mapreduce.job.reduces=" + REDUCES};
    Path sortRef = tmp.resolve("terasort-ref");
    Path sortFut = tmp.resolve("terasort-fut");
    Runs.Result sortRefRun = Runs.tool(ref, tmp.resolve("scratch-sort-ref"), new TeraSort(),
        concat(sortOptions, genFut.toString(), sortRef.toString())).assertSucceeded();
    removeStalePartitionLink();
    Runs.Result sortFutRun = Runs.tool(fut, tmp.resolve("scratch-sort-fut"), new TeraSort(),
        concat(sortOptions, genFut.toString(), sortFut.toString())).assertSucceeded();

    what = "terasort, " + REDUCES + " reducers (" + fut + " vs " + ref + ")";
    OutputDirs.assertCommitted(sortRef, what + ", reference");
    OutputDirs.assertCommitted(sortFut, what + ", under test");
    assertEquals(OutputDirs.expectedPartNames('r', REDUCES), OutputDirs.partNames(sortFut),
        what + ": part files of the framework under test");
    List<Path> sortFutParts = OutputDirs.partFiles(sortFut);
    assertEquals(ROWS * ROW_BYTES, OutputDirs.totalSize(sortFutParts), what + ": bytes written");
    for (Path p : sortFutParts) {
      assertTrue(Files.size(p) > 0, what + ": " + p.getFileName() + " is empty (partitioning?)");
    }
    OutputDirs.assertSameFiles(sortRef, sortFut, what);
    CounterChecks.assertAgree(what, ref, sortRefRun.counters(), fut, sortFutRun.counters());
    assertEquals(ROWS,
        CounterChecks.value(sortFutRun.counters(), TaskCounter.REDUCE_OUTPUT_RECORDS),
        what + ": reduce output records");

    // --- teravalidate on the framework under test's output -------------------------------------
    Path validate = tmp.resolve("teravalidate-fut");
    Runs.tool(fut, tmp.resolve("scratch-validate-fut"), new TeraValidate(),
        sortFut.toString(), validate.toString()).assertSucceeded();
    OutputDirs.assertCommitted(validate, "teravalidate on " + fut);
    List<String> report = OutputDirs.readPartLines(validate);
    List<String> errors = report.stream()
        .filter(l -> l.startsWith("error"))
        .collect(Collectors.toList());
    assertTrue(errors.isEmpty(), "teravalidate on " + fut + "'s terasort output reports errors: "
        + errors);
    Map<String, String> byKey = report.stream()
        .filter(l -> l.indexOf('\t') > 0)
        .collect(Collectors.toMap(l -> l.substring(0, l.indexOf('\t')),
            l -> l.substring(l.indexOf('\t') + 1), (a, b) -> a + " | " + b));
    String validatedChecksum = byKey.get("checksum");
    assertNotNull(validatedChecksum, "teravalidate output has no checksum line: " + report);

    // --- the checksum of the generated data (TeraChecksum on the reference runner) -------------
    Path sum = tmp.resolve("terachecksum-ref");
    Runs.tool(ref, tmp.resolve("scratch-sum-ref"), new TeraChecksum(),
        genFut.toString(), sum.toString()).assertSucceeded();
    List<String> sumLines = OutputDirs.readPartLines(sum);
    assertEquals(1, sumLines.size(), "TeraChecksum output: " + sumLines);
    String generatedChecksum = sumLines.get(0).trim();
    assertFalse(generatedChecksum.isEmpty());

    assertEquals(generatedChecksum, validatedChecksum,
        "checksum of " + fut + "'s sorted output (teravalidate) vs of the generated input"
            + " (TeraChecksum)");
    // 200k CRC32 values sum to less than 2^64, so TeraGen's counter holds the whole sum.
    assertEquals(Long.toHexString(genChecksum), generatedChecksum,
        "TeraGen's CHECKSUM counter vs TeraChecksum of its output");
  }

  private static String[] concat(String[] options, String... args) {
    String[] out = new String[options.length + args.length];
    System.arraycopy(options, 0, out, 0, options.length);
    System.arraycopy(args, 0, out, options.length, args.length);
    return out;
  }
}
