package io.vivace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Compressed map output that may not stay on the heap: {@code vivace.shuffle.memory.mb} is read
 * when a JVM's engine starts, so this runs Apache's wordcount in a JVM of its own ({@code ./vivace})
 * with a shuffle budget of 0 MB. Every map output then goes to a compressed local file, and each
 * reducer merges six of them two at a time.
 */
@Tag("integration")
class CompressedShuffleOnDiskTest {

  @TempDir
  Path workDir;

  private Path input() throws IOException {
    Path input = Files.createDirectories(workDir.resolve("in"));
    Random random = new Random(3);
    for (int f = 0; f < 6; f++) {
      StringBuilder text = new StringBuilder();
      for (int line = 0; line < 4_000; line++) {
        for (int w = 0; w < 6; w++) {
          text.append("w").append(random.nextInt(f % 2 == 0 ? 2_000 : 40)).append(' ');
        }
        text.append('\n');
      }
      Files.writeString(input.resolve("part" + f + ".txt"), text.toString());
    }
    return input;
  }

  @Tag("slow")
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"SnappyCodec", "DefaultCodec"})
  void mapOutputsOnDiskAreCompressedAndMergedBack(String codec) throws Exception {
    Path input = input();
    Path output = workDir.resolve("out");
    VivaceScript.Result result = new VivaceScript(workDir).run("jar",
        VivaceScript.examplesJar().toString(), "wordcount",
        "-D", "hadoop.tmp.dir=" + workDir.resolve("hadoop-tmp"),
        "-D", "vivace.shuffle.memory.mb=0",
        "-D", "mapreduce.map.output.compress=true",
        "-D", "mapreduce.map.output.compress.codec=org.apache.hadoop.io.compress." + codec,
        "-D", "mapreduce.task.io.sort.factor=2",
        "-D", "mapreduce.job.reduces=3",
        input.toString(), output.toString());

    assertEquals(0, result.exitCode(), result.describe());
    assertEquals(expectedWordCounts(input), wordCountsIn(output));
    assertFalse(result.stderr().contains("ignored"), result.describe());
    long mapOutputBytes = counter(result, "Map output bytes");
    long materialized = counter(result, "Map output materialized bytes");
    assertTrue(materialized < mapOutputBytes / 2, "materialized " + materialized + " of " + mapOutputBytes);
    assertEquals(materialized, counter(result, "Reduce shuffle bytes"));
    // every map output went to disk, and the reducers' merges wrote more on top
    assertTrue(counter(result, "FILE: Number of bytes written") > materialized, result.describe());
  }

  private static long counter(VivaceScript.Result result, String name) {
    Matcher m = Pattern.compile("\\s" + Pattern.quote(name) + "=(\\d+)").matcher(result.stderr());
    assertTrue(m.find(), "no counter \"" + name + "\" in the job's log\n" + result.describe());
    return Long.parseLong(m.group(1));
  }

  private static Map<String, Integer> expectedWordCounts(Path inputDir) throws IOException {
    Map<String, Integer> counts = new TreeMap<>();
    try (Stream<Path> files = Files.list(inputDir)) {
      for (Path file : files.toList()) {
        for (String word : Files.readString(file, StandardCharsets.UTF_8).split("\\s+")) {
          if (!word.isEmpty()) {
            counts.merge(word, 1, Integer::sum);
          }
        }
      }
    }
    return counts;
  }

  private static Map<String, Integer> wordCountsIn(Path outputDir) throws IOException {
    Map<String, Integer> counts = new TreeMap<>();
    List<Path> parts = new ArrayList<>();
    try (Stream<Path> files = Files.list(outputDir)) {
      files.filter(f -> f.getFileName().toString().startsWith("part-")).forEach(parts::add);
    }
    assertEquals(3, parts.size(), "part files: " + parts);
    for (Path part : parts) {
      for (String line : Files.readAllLines(part, StandardCharsets.UTF_8)) {
        String[] wordAndCount = line.split("\t");
        counts.put(wordAndCount[0], Integer.parseInt(wordAndCount[1]));
      }
    }
    return counts;
  }
}
