package io.vivace.conformance.libraries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.conformance.Frameworks;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The order in which a reduce receives the values of one key is not defined by Hadoop, and
 * Hadoop's own LocalJobRunner changes it with its own settings: the map-side sort buffer (how many
 * spills its unstable quicksort makes and the merge then interleaves) and the number of maps. So a
 * program whose output keeps that order (Crunch's joins and co-groups, Mahout's vectors) has no
 * single Hadoop answer to match. Vivace gives the values of a key in the order they were collected:
 * map by map (in the order of the job's splits, which Hadoop's submitter sorts largest first), each
 * map's in the order it read them, whatever the sort buffer.
 */
@Tag("slow")
class EqualKeyValueOrderTest {

  private static final JobJar JAR = JobJar.of("hadoop-library");
  private static final String PROGRAM = "io.vivace.jobs.library.ValueOrder";
  private static final int FILES = 3;
  private static final int LINES = 40_000;

  @TempDir
  Path root;

  /** {@code k<n>,<file>:<line>} lines over 20 keys: a value names where it was read. */
  private Path input() {
    return Inputs.textFiles(root.resolve("in"), FILES, LINES, 41,
        (random, i) -> "k" + random.nextInt(20) + "," + (i / LINES) + ":" + String.format("%05d", i % LINES));
  }

  private TreeMap<String, List<String>> run(String framework, String name, String... options) throws Exception {
    List<String> args = new ArrayList<>(List.of(options));
    args.add(input().toString());
    Path out = root.resolve(name);
    args.add(out.toString());
    JobJarRunner.run(framework, root.resolve("scratch-" + name), JAR, PROGRAM, args.toArray(new String[0])).assertSucceeded();
    TreeMap<String, List<String>> valuesByKey = new TreeMap<>();
    for (String line : Files.readAllLines(out.resolve("part-r-00000"), StandardCharsets.UTF_8)) {
      int tab = line.indexOf('\t');
      valuesByKey.put(line.substring(0, tab), List.of(line.substring(tab + 1).split(",")));
    }
    return valuesByKey;
  }

  @Test
  void hadoopsOrderOfEqualKeysChangesWithItsSortBufferAndItsMaps() throws Exception {
    String local = Frameworks.REFERENCE;
    TreeMap<String, List<String>> oneSpill = run(local, "local-sort-100mb", "-D", "mapreduce.task.io.sort.mb=100");
    TreeMap<String, List<String>> spills = run(local, "local-sort-1mb", "-D", "mapreduce.task.io.sort.mb=1");
    TreeMap<String, List<String>> moreMaps = run(local, "local-more-maps", "-D", "mapreduce.task.io.sort.mb=100",
        "-D", "mapreduce.input.fileinputformat.split.maxsize=200000");
    assertEquals(sorted(oneSpill), sorted(spills), "the same values per key");
    assertEquals(sorted(oneSpill), sorted(moreMaps), "the same values per key");
    assertNotEquals(oneSpill, spills, "LocalJobRunner: the values' order with io.sort.mb 100 and 1");
    assertNotEquals(oneSpill, moreMaps, "LocalJobRunner: the values' order with 3 maps and with more");
    report("LocalJobRunner, io.sort.mb=100", oneSpill);
    report("LocalJobRunner, io.sort.mb=1", spills);
    report("LocalJobRunner, more maps", moreMaps);
  }

  @Test
  void vivaceGivesTheValuesOfAKeyInTheOrderTheMapsCollectedThem() throws Exception {
    String vivace = Frameworks.underTest();
    TreeMap<String, List<String>> oneSpill = run(vivace, "vivace-sort-100mb", "-D", "mapreduce.task.io.sort.mb=100");
    TreeMap<String, List<String>> spills = run(vivace, "vivace-sort-1mb", "-D", "mapreduce.task.io.sort.mb=1");
    assertMapByMapInReadingOrder(oneSpill);
    assertEquals(oneSpill, spills, "Vivace: the values' order with io.sort.mb 100 and 1");
    report("Vivace, io.sort.mb=1", spills);
  }

  /** Each key's values: one run per file (one map each), each in line order, the files in one order for all keys. */
  private static void assertMapByMapInReadingOrder(TreeMap<String, List<String>> valuesByKey) {
    List<String> fileOrder = null;
    for (var entry : valuesByKey.entrySet()) {
      List<String> files = new ArrayList<>();
      String previous = null;
      for (String value : entry.getValue()) {
        String file = value.substring(0, value.indexOf(':'));
        if (previous == null || !previous.startsWith(file + ":")) {
          assertFalse(files.contains(file), entry.getKey() + ": the values of file " + file + " are not one run: " + entry.getValue());
          files.add(file);
        } else {
          assertTrue(previous.compareTo(value) < 0, entry.getKey() + ": " + previous + " before " + value);
        }
        previous = value;
      }
      if (fileOrder == null) {
        fileOrder = files;
      }
      assertEquals(fileOrder, files, entry.getKey() + ": the maps' order");
    }
  }

  private static TreeMap<String, List<String>> sorted(TreeMap<String, List<String>> valuesByKey) {
    TreeMap<String, List<String>> sorted = new TreeMap<>();
    valuesByKey.forEach((k, v) -> sorted.put(k, v.stream().sorted().toList()));
    return sorted;
  }

  private static void report(String what, TreeMap<String, List<String>> valuesByKey) {
    List<String> first = valuesByKey.firstEntry().getValue();
    System.out.printf("[conformance] %s: %s's first values %s%n", what, valuesByKey.firstKey(), first.subList(0, 6));
  }
}
