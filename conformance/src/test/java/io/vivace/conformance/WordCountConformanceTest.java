package io.vivace.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Apache's wordcount on the framework under test and on LocalJobRunner: identical output. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class WordCountConformanceTest {

  private static final long SEED = 20240611L;
  /** About 4 MB in five files, so there are several splits even without a split size. */
  private static final long[] SIZES = {1_600_000, 1_100_000, 800_000, 450_000, 30_000};

  /** The variant of the fast tier (`vivace test --fast`, docs/testing.md): splits and reducers. */
  static Stream<Arguments> withSplits() {
    return Stream.of(
        Arguments.of("2 reducers, 600 kB splits", 2, new String[] {
          "-D", "mapreduce.job.reduces=2",
          "-D", "mapreduce.input.fileinputformat.split.maxsize=600000"}));
  }

  static Stream<Arguments> otherVariants() {
    return Stream.of(
        Arguments.of("default (1 reducer)", 1, new String[0]),
        Arguments.of("3 reducers", 3, new String[] {"-D", "mapreduce.job.reduces=3"}));
  }

  @ParameterizedTest(name = "wordcount, {0}")
  @MethodSource("withSplits")
  void wordcountMatchesLocalJobRunner(String label, int reduces, String[] options,
      @TempDir Path tmp) throws Exception {
    assertWordcountMatches(label, reduces, options, tmp);
  }

  @Tag("slow")
  @ParameterizedTest(name = "wordcount, {0}")
  @MethodSource("otherVariants")
  void wordcountOtherwiseMatchesLocalJobRunner(String label, int reduces, String[] options,
      @TempDir Path tmp) throws Exception {
    assertWordcountMatches(label, reduces, options, tmp);
  }

  private static void assertWordcountMatches(String label, int reduces, String[] options, Path tmp)
      throws Exception {
    Path input = tmp.resolve("input");
    List<Path> inputFiles = TextCorpus.write(input, SEED, SIZES);
    String fut = Frameworks.underTest();

    Path refOut = tmp.resolve("out-" + Frameworks.REFERENCE);
    Path futOut = tmp.resolve("out-under-test");
    WordCountTool refTool = new WordCountTool();
    WordCountTool futTool = new WordCountTool();
    Runs.tool(Frameworks.REFERENCE, tmp.resolve("scratch-ref"), refTool,
        Runs.args(options, input, refOut)).assertSucceeded();
    Runs.Result run = Runs.tool(fut, tmp.resolve("scratch-fut"), futTool,
        Runs.args(options, input, futOut)).assertSucceeded();

    String what = "wordcount " + label + " (" + fut + " vs " + Frameworks.REFERENCE + ")";
    OutputDirs.assertCommitted(refOut, what + ", reference");
    OutputDirs.assertCommitted(futOut, what + ", under test");
    assertEquals(OutputDirs.expectedPartNames('r', reduces), OutputDirs.partNames(futOut),
        what + ": part files of the framework under test");
    OutputDirs.assertSameFiles(refOut, futOut, what);

    // Counters: from the Job object itself (WordCountTool keeps it) and via the recorder.
    Counters refCounters = refTool.job().getCounters();
    Counters futCounters = futTool.job().getCounters();
    CounterChecks.assertAgree(what, Frameworks.REFERENCE, refCounters, fut, futCounters);
    CounterChecks.assertAgree(what + " (recorded)", "job", futCounters, "recorder",
        run.counters());

    // Independent oracle: every token is one map output record, and the counts add up.
    long tokens = TextCorpus.countTokens(inputFiles);
    assertEquals(tokens, CounterChecks.value(futCounters, TaskCounter.MAP_OUTPUT_RECORDS),
        what + ": map output records vs tokens in the input");
    long lines = 0;
    for (Path f : inputFiles) {
      lines += countLines(Files.readAllBytes(f));
    }
    assertEquals(lines, CounterChecks.value(futCounters, TaskCounter.MAP_INPUT_RECORDS),
        what + ": map input records vs lines in the input");
    long sum = 0;
    List<String> outLines = OutputDirs.readPartLines(futOut);
    for (String l : outLines) {
      int tab = l.lastIndexOf('\t');
      assertTrue(tab > 0, what + ": malformed output line " + l);
      sum += Long.parseLong(l.substring(tab + 1));
    }
    assertEquals(tokens, sum, what + ": sum of the counts in the output");
    assertEquals(outLines.size(),
        CounterChecks.value(futCounters, TaskCounter.REDUCE_OUTPUT_RECORDS),
        what + ": reduce output records vs output lines");
  }

  /** Lines as LineRecordReader delivers them: LF or CRLF separated, a last unterminated line. */
  private static long countLines(byte[] data) {
    long n = 0;
    for (byte b : data) {
      if (b == '\n') {
        n++;
      }
    }
    if (data.length > 0 && data[data.length - 1] != '\n') {
      n++;
    }
    return n;
  }
}
