package io.vivace.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.hadoop.examples.terasort.TeraGen;
import org.apache.hadoop.examples.terasort.TeraSort;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.util.Tool;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Apache's wordcount (with its combiner) and terasort with {@code mapreduce.map.output.compress}, for
 * each codec Hadoop ships that works without libhadoop: the framework under test's output is
 * byte-identical to LocalJobRunner's with the same settings and to its own uncompressed run, with
 * the default sort buffer and with a 1 MB one merged two runs at a time (many spills, multi-pass
 * merges of compressed segments); the counters carry Hadoop's meaning.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class MapOutputCompressionConformanceTest {

  private static final long SEED = 20240612L;
  private static final long[] SIZES = {1_200_000, 900_000, 400_000};
  private static final long TERA_ROWS = 100_000;
  /** Bytes Hadoop's IFile adds after each compressed partition segment: its CRC32 checksum. */
  private static final int IFILE_CHECKSUM = 4;

  @TempDir
  static Path tmp;
  private static Path corpus;
  private static Path teraInput;
  /** Output directories of the framework under test without compression, per variant. */
  private static final Map<String, Path> UNCOMPRESSED = new HashMap<>();
  private static int runs;

  @BeforeAll
  static void inputs() throws Exception {
    corpus = tmp.resolve("corpus");
    TextCorpus.write(corpus, SEED, SIZES);
    teraInput = tmp.resolve("teragen");
    Runs.tool(Frameworks.underTest(), tmp.resolve("scratch-teragen"), new TeraGen(),
        "-D", "mapreduce.job.maps=3", Long.toString(TERA_ROWS), teraInput.toString()).assertSucceeded();
  }

  /** The case of the fast tier (`vivace test --fast`, docs/testing.md): LZ4, compressed spills merged. */
  static Stream<Arguments> lz4() {
    return Stream.of(Arguments.of("Lz4Codec", true));
  }

  static Stream<Arguments> otherCodecs() {
    return Stream.concat(Stream.of(Arguments.of("Lz4Codec", false)),
        withAndWithoutSpills(Stream.of("DefaultCodec", "GzipCodec", "BZip2Codec", "SnappyCodec")));
  }

  private static Stream<Arguments> withAndWithoutSpills(Stream<String> codecs) {
    return codecs.flatMap(c -> Stream.of(Arguments.of(c, false), Arguments.of(c, true)));
  }

  private static String[] compression(String codec) {
    return new String[] {"-D", "mapreduce.map.output.compress=true",
        "-D", "mapreduce.map.output.compress.codec=org.apache.hadoop.io.compress." + codec};
  }

  /** 1 MB sort buffers merged two runs at a time: many spills, multi-pass merges. */
  private static String[] spilling(boolean manySpills) {
    return manySpills
        ? new String[] {"-D", "mapreduce.task.io.sort.mb=1", "-D", "mapreduce.task.io.sort.factor=2"}
        : new String[0];
  }

  private static String[] concat(String[]... parts) {
    return Stream.of(parts).flatMap(Arrays::stream).toArray(String[]::new);
  }

  /**
   * TeraSort's partitioner opens _partition.lst in the working directory, where LocalJobRunner
   * links it and removes the link when its job ends; a stale link would be reused.
   */
  private static void removeStalePartitionLink() throws IOException {
    Path link = Paths.get(System.getProperty("user.dir"), "_partition.lst");
    if (Files.isSymbolicLink(link)) {
      Files.delete(link);
    }
  }

  private static Path newDir(String name) {
    return tmp.resolve(name + "-" + (runs++));
  }

  private record Run(Path output, Counters counters) {
    long counter(TaskCounter c) {
      return CounterChecks.value(counters, c);
    }
  }

  private static Run run(String framework, Tool tool, String[] options, Path... inputs) throws Exception {
    removeStalePartitionLink();
    Path out = newDir("out");
    List<String> args = new ArrayList<>(Arrays.asList(options));
    for (Path in : inputs) {
      args.add(in.toString());
    }
    args.add(out.toString());
    Runs.Result result = Runs.tool(framework, newDir("scratch"), tool, args.toArray(new String[0]))
        .assertSucceeded();
    OutputDirs.assertCommitted(out, tool.getClass().getSimpleName() + " on " + framework);
    return new Run(out, result.counters());
  }

  private static synchronized Path uncompressed(String variant, Tool tool, String[] options, Path input)
      throws Exception {
    Path out = UNCOMPRESSED.get(variant);
    if (out == null) {
      out = run(Frameworks.underTest(), tool, options, input).output();
      UNCOMPRESSED.put(variant, out);
    }
    return out;
  }

  /**
   * Output and counters of both frameworks with compression, against each other and the plain run.
   * With many spills and a combiner, the reduce input depends on how often each framework spilled
   * and combined, so only the counters that do not are compared.
   */
  private static void check(String what, String codec, Run ref, Run fut, Path plain, boolean manySpills,
                            boolean combiner) throws Exception {
    OutputDirs.assertSameFiles(ref.output(), fut.output(), what + " vs " + Frameworks.REFERENCE);
    OutputDirs.assertSameFiles(plain, fut.output(), what + " vs the uncompressed run");
    if (manySpills && combiner) {
      for (TaskCounter c : new TaskCounter[] {TaskCounter.MAP_INPUT_RECORDS, TaskCounter.MAP_OUTPUT_RECORDS,
          TaskCounter.REDUCE_INPUT_GROUPS, TaskCounter.REDUCE_OUTPUT_RECORDS}) {
        assertEquals(ref.counter(c), fut.counter(c), what + ": " + c);
      }
    } else {
      CounterChecks.assertAgree(what, Frameworks.REFERENCE, ref.counters(), Frameworks.underTest(),
          fut.counters());
    }
    for (Run r : List.of(ref, fut)) {
      long materialized = r.counter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES);
      assertTrue(materialized > 0 && materialized < r.counter(TaskCounter.MAP_OUTPUT_BYTES),
          what + ": compressed map output " + materialized + " of " + r.counter(TaskCounter.MAP_OUTPUT_BYTES));
      assertEquals(materialized, r.counter(TaskCounter.REDUCE_SHUFFLE_BYTES),
          what + ": reducers shuffle the materialised (compressed) bytes");
    }
    if (!manySpills) {
      // One spill per map on both: the same records in the same format (Vivace's compressed
      // segments end with IFile's end marker too), without the checksum IFile appends to each
      // partition segment. Stream codecs then give the very same bytes; the block codecs cut their
      // blocks where the writes to them end, and Vivace writes in 64 KB pieces, Hadoop per record.
      long segments = fut.counter(TaskCounter.MERGED_MAP_OUTPUTS);
      long expected = ref.counter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES) - IFILE_CHECKSUM * segments;
      long actual = fut.counter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES);
      String message = what + ": materialised bytes vs LocalJobRunner's, " + segments + " segments";
      if (codec.equals("SnappyCodec") || codec.equals("Lz4Codec")) {
        assertTrue(Math.abs(expected - actual) <= expected / 100, message + ": " + expected + " vs " + actual);
      } else {
        assertEquals(expected, actual, message);
      }
    }
  }

  @ParameterizedTest(name = "wordcount, {0}, many spills: {1}")
  @MethodSource("lz4")
  void wordcount(String codec, boolean manySpills) throws Exception {
    assertWordcountConforms(codec, manySpills);
  }

  @Tag("slow")
  @ParameterizedTest(name = "wordcount, {0}, many spills: {1}")
  @MethodSource("otherCodecs")
  void wordcountOtherCodecs(String codec, boolean manySpills) throws Exception {
    assertWordcountConforms(codec, manySpills);
  }

  private static void assertWordcountConforms(String codec, boolean manySpills) throws Exception {
    String[] base = concat(new String[] {"-D", "mapreduce.job.reduces=2",
        "-D", "mapreduce.input.fileinputformat.split.maxsize=600000"}, spilling(manySpills));
    String[] options = concat(base, compression(codec));
    Run ref = run(Frameworks.REFERENCE, new WordCountTool(), options, corpus);
    Run fut = run(Frameworks.underTest(), new WordCountTool(), options, corpus);
    Path plain = uncompressed("wordcount" + manySpills, new WordCountTool(), base, corpus);
    check("wordcount with " + codec + (manySpills ? ", many spills" : ""), codec, ref, fut, plain, manySpills,
        true);
    assertTrue(fut.counter(TaskCounter.COMBINE_INPUT_RECORDS) > fut.counter(TaskCounter.COMBINE_OUTPUT_RECORDS),
        "the combiner ran");
  }

  @ParameterizedTest(name = "terasort, {0}, many spills: {1}")
  @MethodSource("lz4")
  void terasort(String codec, boolean manySpills) throws Exception {
    assertTerasortConforms(codec, manySpills);
  }

  @Tag("slow")
  @ParameterizedTest(name = "terasort, {0}, many spills: {1}")
  @MethodSource("otherCodecs")
  void terasortOtherCodecs(String codec, boolean manySpills) throws Exception {
    assertTerasortConforms(codec, manySpills);
  }

  private static void assertTerasortConforms(String codec, boolean manySpills) throws Exception {
    String[] base = concat(new String[] {"-D", "mapreduce.job.reduces=2"}, spilling(manySpills));
    String[] options = concat(base, compression(codec));
    Run ref = run(Frameworks.REFERENCE, new TeraSort(), options, teraInput);
    Run fut = run(Frameworks.underTest(), new TeraSort(), options, teraInput);
    Path plain = uncompressed("terasort" + manySpills, new TeraSort(), base, teraInput);
    check("terasort with " + codec + (manySpills ? ", many spills" : ""), codec, ref, fut, plain, manySpills,
        false);
    assertEquals(TERA_ROWS, fut.counter(TaskCounter.REDUCE_OUTPUT_RECORDS));
    if (manySpills) {
      assertTrue(fut.counter(TaskCounter.SPILLED_RECORDS) > 2 * TERA_ROWS,
          "spills and multi-pass merges: SPILLED_RECORDS=" + fut.counter(TaskCounter.SPILLED_RECORDS));
    }
  }
}
