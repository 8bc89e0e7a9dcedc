package io.vivace.workloads.plasma;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.workloads.BadRecords;
import io.vivace.workloads.TestJobs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Plasma's generator, sort and validator on Vivace and on Apache's LocalJobRunner. */
class PlasmaSortTest {

  @TempDir
  Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"vivace", "local"})
  void generatesTheSameLinesFromTheSameSeedWithinOnePercentOfTheSize(String framework)
      throws Exception {
    Configuration conf = TestJobs.conf(framework, tmp);
    long bytes = 123_456;
    for (String run : List.of("a", "b")) {
      assertEquals(0, TestJobs.run(conf, new PlasmaGen(), "-maps", "3", "-seed", "7",
          Long.toString(bytes), tmp.resolve(run).toString()));
    }
    assertEquals(0, TestJobs.run(conf, new PlasmaGen(), "-maps", "3", "-seed", "8",
        Long.toString(bytes), tmp.resolve("other-seed").toString()));

    assertEquals(3, TestJobs.dataFiles(tmp.resolve("a")).size(), "one file per map");
    long written = TestJobs.bytes(tmp.resolve("a"));
    assertTrue(Math.abs(written - bytes) <= bytes / 100, written + " bytes for " + bytes);
    List<String> lines = TestJobs.lines(tmp.resolve("a"));
    assertEquals(TestJobs.lines(tmp.resolve("b")), lines, "same seed, same data");
    assertNotEquals(TestJobs.lines(tmp.resolve("other-seed")), lines, "another seed, other data");
    Set<String> keys = new HashSet<>();
    for (String line : lines) {
      assertEquals(PlasmaLine.TEXT_BYTES, line.getBytes(StandardCharsets.US_ASCII).length, line);
      assertEquals('\t', line.charAt(PlasmaLine.KEY_BYTES), line);
      long key = Long.parseLong(line.substring(0, PlasmaLine.KEY_BYTES), 16);
      assertEquals(0, key % 65_537, "a key is one of 65,536 values: " + line);
      keys.add(line.substring(0, PlasmaLine.KEY_BYTES));
    }
    assertTrue(keys.size() < lines.size(), "duplicate keys among " + lines.size() + " lines");
  }

  @Tag("slow")
  @ParameterizedTest
  @ValueSource(strings = {"vivace", "local"})
  void sortsLikeASingleProcessSortAcrossThePartitions(String framework) throws Exception {
    Configuration conf = TestJobs.conf(framework, tmp);
    Path in = tmp.resolve("in");
    Path out = tmp.resolve("out");
    assertEquals(0, TestJobs.run(conf, new PlasmaGen(), "-maps", "3", "-seed", "1", "300000",
        in.toString()));

    assertEquals(0, TestJobs.run(conf, new PlasmaSort(), "-r", "7", in.toString(),
        out.toString()));

    List<String> expected = new ArrayList<>(TestJobs.lines(in));
    expected.sort(null);
    assertEquals(expected, TestJobs.lines(out), "the lines of a single-process sort, in order");
    assertEquals(7, TestJobs.dataFiles(out).size(), "one part file per partition");
    PlasmaValidate validate = new PlasmaValidate();
    validate.setConf(conf);
    assertNull(validate.problem(new org.apache.hadoop.fs.Path(in.toUri()),
        new org.apache.hadoop.fs.Path(out.toUri())));
  }

  @Test
  void theValidatorFindsLinesOutOfOrderAcrossPartsAndLostLines() throws Exception {
    Configuration conf = TestJobs.conf("vivace", tmp);
    Path in = tmp.resolve("in");
    Files.createDirectories(in);
    String low = line(1, 'a');
    String high = line(2, 'b');
    Files.writeString(in.resolve("part-m-00000"), high + "\n" + low + "\n");
    Path swapped = Files.createDirectories(tmp.resolve("swapped"));
    Files.writeString(swapped.resolve("part-r-00000"), high + "\n");
    Files.writeString(swapped.resolve("part-r-00001"), low + "\n");
    Path lost = Files.createDirectories(tmp.resolve("lost"));
    Files.writeString(lost.resolve("part-r-00000"), low + "\n");

    assertEquals(1, TestJobs.run(conf, new PlasmaValidate(), in.toString(), swapped.toString()));
    assertEquals(1, TestJobs.run(conf, new PlasmaValidate(), in.toString(), lost.toString()));
  }

  @ParameterizedTest
  @ValueSource(strings = {"vivace", "local"})
  void malformedLinesFailTheJobOrAreCountedAndSkipped(String framework) throws Exception {
    Path in = Files.createDirectories(tmp.resolve("in"));
    String good = line(3, 'c');
    Files.writeString(in.resolve("part-m-00000"), good + "\nshort line\n" + line(1, 'd') + "\n");
    Configuration conf = TestJobs.conf(framework, tmp);

    assertNotEquals(0, TestJobs.run(conf, new PlasmaSort(), "-r", "2", in.toString(),
        tmp.resolve("failed").toString()), "fails by default");

    conf.set(BadRecords.KEY, "skip");
    PlasmaSort sort = new PlasmaSort();
    sort.setConf(conf);
    Job job = sort.createJob(new org.apache.hadoop.fs.Path(in.toUri()),
        new org.apache.hadoop.fs.Path(tmp.resolve("skipped").toUri()), 2);
    assertTrue(job.waitForCompletion(false));
    assertEquals(1, job.getCounters().findCounter(BadRecords.GROUP, BadRecords.COUNTER).getValue());
    assertEquals(List.of(line(1, 'd'), good), TestJobs.lines(tmp.resolve("skipped")));
  }

  @Test
  void aPartitionIsASliceOfTheKeyRange() {
    PlasmaSort.KeyRangePartitioner partitioner = new PlasmaSort.KeyRangePartitioner();
    int[] partitions = new int[3];
    for (int key : new int[] {0, 21_845, 21_846, 65_535}) {
      partitions[0] = partitioner.getPartition(new org.apache.hadoop.io.Text(line(key, 'x')),
          null, 80);
      partitions[1] = (int) ((long) key * 65_537 * 80 >>> 32);
      partitions[2] = partitioner.getPartition(new org.apache.hadoop.io.Text(line(key, 'x')),
          null, 1);
      assertArrayEquals(new int[] {partitions[1], partitions[1], 0}, partitions, "key " + key);
    }
    assertEquals(79, partitioner.getPartition(new org.apache.hadoop.io.Text(line(65_535, 'x')),
        null, 80));
  }

  private static String line(int key, char fill) {
    return String.format("%08X", (long) key * 65_537) + "\t" + Character.toString(fill).repeat(90);
  }
}
