package io.vivace.conformance;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.streaming.StreamJob;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hadoop Streaming, the real {@code hadoop-streaming} jar, with a Python mapper and reducer shipped
 * as Python users ship them: with the generic option {@code -files} and with the older
 * {@code -file}, run directly (their {@code #!} line) or through {@code python3}, map-only and with
 * reduces. The scripts must be found in the task's working directory, and start there.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class StreamingConformanceTest {

  private static final String MAPPER = """
      #!/usr/bin/env python3
      import sys
      for line in sys.stdin:
          for word in line.split():
              print(word + "\\t1")
      """;
  private static final String REDUCER = """
      #!/usr/bin/env python3
      import sys
      current, total = None, 0
      for line in sys.stdin:
          word, count = line.rstrip("\\n").split("\\t")
          if word != current:
              if current is not None:
                  print(current + "\\t" + str(total))
              current, total = word, 0
          total += int(count)
      if current is not None:
          print(current + "\\t" + str(total))
      """;

  /** The case of the fast tier (`vivace test --fast`, docs/testing.md). */
  static Stream<Arguments> shipping() {
    return Stream.of(
        Arguments.of("-files, scripts run by their #! line, 2 reduces",
            List.of("-files", "{mapper},{reducer}"), "mapper.py", "reducer.py", 2));
  }

  static Stream<Arguments> otherShipping() {
    return Stream.of(
        Arguments.of("-files, map-only", List.of("-files", "{mapper}"), "mapper.py", null, 0),
        Arguments.of("-file, scripts run by python3, 1 reduce",
            List.of("-file", "{mapper}", "-file", "{reducer}"), "python3 mapper.py", "python3 reducer.py", 1),
        Arguments.of("-file, map-only", List.of("-file", "{mapper}"), "python3 mapper.py", null, 0));
  }

  @ParameterizedTest(name = "streaming, {0}")
  @MethodSource("shipping")
  void pythonStreamingMatchesLocalJobRunner(String label, List<String> ship, String mapper, String reducer,
                                            int reduces, @TempDir Path tmp) throws Exception {
    assertStreamingMatches(label, ship, mapper, reducer, reduces, tmp);
  }

  @Tag("slow")
  @ParameterizedTest(name = "streaming, {0}")
  @MethodSource("otherShipping")
  void pythonStreamingShippedOtherwiseMatchesLocalJobRunner(String label, List<String> ship, String mapper,
                                                            String reducer, int reduces, @TempDir Path tmp)
      throws Exception {
    assertStreamingMatches(label, ship, mapper, reducer, reduces, tmp);
  }

  private static void assertStreamingMatches(String label, List<String> ship, String mapper, String reducer,
                                             int reduces, Path tmp) throws Exception {
    Path scripts = Files.createDirectories(tmp.resolve("scripts"));
    Path mapperScript = script(scripts.resolve("mapper.py"), MAPPER);
    Path reducerScript = script(scripts.resolve("reducer.py"), REDUCER);
    Path input = tmp.resolve("input");
    TextCorpus.write(input, 20251125L, new long[] {120_000, 80_000, 40_000});

    String fut = Frameworks.underTest();
    Path refOut = tmp.resolve("out-" + Frameworks.REFERENCE);
    Path futOut = tmp.resolve("out-under-test");
    Runs.tool(Frameworks.REFERENCE, tmp.resolve("scratch-ref"), new StreamJob(),
        args(ship, mapperScript, reducerScript, mapper, reducer, reduces, input, refOut)).assertSucceeded();
    Runs.tool(fut, tmp.resolve("scratch-fut"), new StreamJob(),
        args(ship, mapperScript, reducerScript, mapper, reducer, reduces, input, futOut)).assertSucceeded();

    String what = "streaming " + label + " (" + fut + " vs " + Frameworks.REFERENCE + ")";
    OutputDirs.assertCommitted(refOut, what + ", reference");
    OutputDirs.assertCommitted(futOut, what + ", under test");
    OutputDirs.assertSameFiles(refOut, futOut, what);
  }

  /** A script as users keep them: readable, not executable (the task's copy must be). */
  private static Path script(Path file, String text) throws Exception {
    Files.writeString(file, text, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    return file;
  }

  private static String[] args(List<String> ship, Path mapperScript, Path reducerScript, String mapper,
                               String reducer, int reduces, Path input, Path output) {
    List<String> args = new ArrayList<>();
    List<String> streamingOptions = new ArrayList<>();
    for (String a : ship) {
      String value = a.replace("{mapper}", mapperScript.toString()).replace("{reducer}", reducerScript.toString());
      // -files is a generic option (before the tool's own); -file is Streaming's own
      (ship.get(0).equals("-files") ? args : streamingOptions).add(value);
    }
    args.addAll(List.of("-D", "mapreduce.job.reduces=" + reduces));
    args.addAll(streamingOptions);
    args.addAll(List.of("-input", input.toString(), "-output", output.toString(), "-mapper", mapper));
    if (reducer != null) {
      args.addAll(List.of("-reducer", reducer));
    }
    return args.toArray(new String[0]);
  }
}
