package io.vivace.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An old-API ({@code mapred}) job of Hadoop's own library classes, submitted through
 * {@code JobClient.runJob}, on the framework under test and on LocalJobRunner: identical output
 * and record counters.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class OldApiTokenCountConformanceTest {

  private static final long SEED = 20261122L;
  private static final long[] SIZES = {900_000, 600_000, 250_000, 10_000};

  /** The variant of the fast tier (`vivace test --fast`, docs/testing.md): splits and reducers. */
  static Stream<Arguments> withSplits() {
    return Stream.of(
        Arguments.of("token count, 3 reducers, 400 kB splits", 3, new String[] {
          "-D", "mapreduce.job.reduces=3",
          "-D", "mapreduce.input.fileinputformat.split.minsize=0",
          "-D", "mapreduce.input.fileinputformat.split.maxsize=400000"}));
  }

  static Stream<Arguments> otherVariants() {
    return Stream.of(
        Arguments.of("token count, 1 reducer", 1, new String[0]),
        Arguments.of("regex count, 2 reducers", 2, new String[] {
          "-D", "mapreduce.job.reduces=2", "-regex", "[a-z]*e[a-z]"}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("withSplits")
  void oldApiJobMatchesLocalJobRunner(String label, int reduces, String[] options,
      @TempDir Path tmp) throws Exception {
    assertOldApiJobMatches(label, reduces, options, tmp);
  }

  @Tag("slow")
  @ParameterizedTest(name = "{0}")
  @MethodSource("otherVariants")
  void oldApiJobOtherwiseMatchesLocalJobRunner(String label, int reduces, String[] options,
      @TempDir Path tmp) throws Exception {
    assertOldApiJobMatches(label, reduces, options, tmp);
  }

  private static void assertOldApiJobMatches(String label, int reduces, String[] options, Path tmp)
      throws Exception {
    Path input = tmp.resolve("input");
    TextCorpus.write(input, SEED, SIZES);
    String fut = Frameworks.underTest();
    Path refOut = tmp.resolve("out-" + Frameworks.REFERENCE);
    Path futOut = tmp.resolve("out-under-test");
    Runs.Result ref = Runs.tool(Frameworks.REFERENCE, tmp.resolve("scratch-ref"),
        new OldApiTokenCountTool(), Runs.args(options, input, refOut)).assertSucceeded();
    OldApiTokenCountTool futTool = new OldApiTokenCountTool();
    Runs.Result run = Runs.tool(fut, tmp.resolve("scratch-fut"), futTool,
        Runs.args(options, input, futOut)).assertSucceeded();

    String what = "old-API " + label + " (" + fut + " vs " + Frameworks.REFERENCE + ")";
    OutputDirs.assertCommitted(futOut, what + ", under test");
    // the old API's output format names its files part-NNNNN, without the task kind
    assertEquals(IntStream.range(0, reduces).mapToObj(i -> String.format("part-%05d", i)).toList(),
        OutputDirs.partNames(futOut), what + ": part files of the framework under test");
    OutputDirs.assertSameFiles(refOut, futOut, what);
    assertTrue(OutputDirs.readPartLines(futOut).size() > 100, what + ": a real output");

    Counters futCounters = run.counters();
    CounterChecks.assertAgree(what, Frameworks.REFERENCE, ref.counters(), fut, futCounters);
    CounterChecks.assertAgree(what + " (RunningJob)", "recorder", futCounters, "RunningJob",
        new Counters(futTool.job().getCounters()));
    assertEquals(OutputDirs.readPartLines(futOut).size(),
        CounterChecks.value(futCounters, TaskCounter.REDUCE_OUTPUT_RECORDS),
        what + ": reduce output records vs output lines");
  }
}
