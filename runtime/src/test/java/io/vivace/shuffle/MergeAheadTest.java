package io.vivace.shuffle;

import static io.vivace.merge.SortedRuns.append;
import static io.vivace.merge.SortedRuns.assertSortedPermutation;
import static io.vivace.merge.SortedRuns.drain;
import static io.vivace.merge.SortedRuns.sortedRun;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.localdisk.ScratchDir;
import io.vivace.merge.MergingIterator;
import io.vivace.merge.SegmentMerger;
import io.vivace.merge.SortedRuns.KV;
import io.vivace.segment.FileSegment;
import io.vivace.segment.PartitionedFileWriter;
import io.vivace.segment.Segment;
import io.vivace.segment.SegmentCodec;
import io.vivace.segment.SegmentReader;
import io.vivace.shuffle.ShuffleRegistry.DiskSegment;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.WritableComparator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Merging a partition's on-disk map outputs while maps still run: real map output files published
 * one by one to a {@link ShuffleRegistry}, merged by {@link MergeAhead}'s thread, then taken and
 * merged by the "reduce" as {@link io.vivace.task} does.
 */
class MergeAheadTest {

  private static final RawComparator<?> INT_ORDER = WritableComparator.get(IntWritable.class);

  @TempDir
  Path mapsDir;
  @TempDir
  Path mergeDir;

  private int maps;

  /** A map output file with one sorted run per partition (null runs: the partition is empty). */
  private MapOutput mapOutput(List<List<KV>> runs) throws IOException {
    File file = mapsDir.resolve("map" + (maps++) + ".out").toFile();
    PartitionedFileWriter out = new PartitionedFileWriter(file, runs.size());
    for (int p = 0; p < runs.size(); p++) {
      var writer = out.startPartition(p);
      for (KV kv : runs.get(p)) {
        append(writer, kv);
      }
    }
    return new MapOutput(out.finish());
  }

  private static List<String> filesIn(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).sorted().toList();
    }
  }

  private MergeAhead attach(ShuffleRegistry shuffle, int factor) {
    return MergeAhead.attach(shuffle, factor, () -> WritableComparator.get(IntWritable.class), SegmentCodec.NONE,
        ScratchDir.of(mergeDir.resolve("merge-ahead").toFile()), "test-merge-ahead", getClass().getClassLoader());
  }

  // ---- which files: MergeAhead.choose ------------------------------------------------------

  /** On-disk segments of the given levels and lengths (the lengths of real segments of that many records). */
  private List<DiskSegment> disk(int[] levels, int[] records) throws IOException {
    List<DiskSegment> disk = new ArrayList<>();
    for (int i = 0; i < levels.length; i++) {
      List<KV> run = new ArrayList<>();
      for (int r = 0; r < records[i]; r++) {
        run.add(new KV(r, "x"));
      }
      disk.add(new DiskSegment(mapOutput(List.of(run)).partition(0), levels[i]));
    }
    return disk;
  }

  @Test
  void nothingIsMergedWhileTheFilesToComeFitTheFactor() throws Exception {
    List<DiskSegment> disk = disk(new int[] {0, 0, 0, 0}, new int[] {1, 2, 3, 4});
    assertNull(MergeAhead.choose(disk, 6, 10), "4 files and 6 maps to go: 10 fit a factor of 10");
    assertNull(MergeAhead.choose(disk, 0, 2), "no map left: the reduce merges what is there itself");
  }

  @Test
  void mapOutputsMergeInGroupsOfTheFactorSmallestFirst() throws Exception {
    List<DiskSegment> disk = disk(new int[] {0, 0, 0, 0, 0}, new int[] {50, 10, 40, 20, 30});
    List<DiskSegment> chosen = MergeAhead.choose(disk, 100, 3);
    assertEquals(List.of(disk.get(1), disk.get(3), disk.get(4)), chosen, "the 3 smallest, smallest first");
    assertNull(MergeAhead.choose(disk.subList(0, 2), 100, 3), "fewer than the factor: wait for more");
  }

  @Test
  void nearTheEndJustEnoughFilesMergeToLeaveTheFactor() throws Exception {
    // 7 on disk and 2 maps to go: 9 files for a factor of 5, so 5 must become 1
    List<DiskSegment> disk = disk(new int[] {0, 0, 0, 0, 0, 0, 0}, new int[] {7, 6, 5, 4, 3, 2, 1});
    assertEquals(5, MergeAhead.choose(disk, 2, 5).size());
    // 4 on disk and 2 to go for a factor of 5: 2 become 1
    assertEquals(List.of(disk.get(6), disk.get(5)), MergeAhead.choose(disk.subList(3, 7), 2, 5));
  }

  @Test
  void mergeResultsAreMergedAgainOnlyWhileTheFactorMinusOneFilesMustStillGo() throws Exception {
    List<DiskSegment> merged = disk(new int[] {1, 1, 1, 1, 0}, new int[] {30, 30, 30, 30, 1});
    // 5 files + 20 maps to go, factor 4: 21 must go, and level 0 has too few: merge 4 results
    assertEquals(merged.subList(0, 4), MergeAhead.choose(merged, 20, 4));
    // 5 files + 1 map to go: 2 must go (fewer than the factor - 1): the results wait for the reduce
    assertNull(MergeAhead.choose(merged, 1, 4));
  }

  // ---- merging while maps are published ----------------------------------------------------

  @Test
  void publishedOutputsAreMergedSoTheReduceFindsAtMostTheFactorAndEveryRecord() throws Exception {
    Random random = new Random(11);
    int mapCount = 6;
    int factor = 3;
    ShuffleRegistry shuffle = new ShuffleRegistry(mapCount, 1);
    MergeAhead merge = attach(shuffle, factor);
    List<List<KV>> runs = new ArrayList<>();
    List<Segment> originals = new ArrayList<>();
    for (int m = 0; m < mapCount; m++) {
      List<KV> run = sortedRun(random, m, 500 + random.nextInt(500), 2_000);
      runs.add(run);
      MapOutput output = mapOutput(List.of(run));
      originals.add(output.partition(0));
      shuffle.publish(m, output);
      merge.awaitIdle();
    }
    // maps 1-3 merge as one file once the third is out (6 files to come, factor 3); 4-5 as another
    // when the fifth is out (3 + 1 to come); the sixth stays as it is
    ShuffledPartition taken = shuffle.take(0);
    List<Segment> segments = taken.segments();
    assertEquals(3, segments.size(), "at most the factor of files is left for the reduce");
    assertEquals(originals.get(5), segments.get(0), "the last map's output is left as it is");
    assertEquals(List.of("map5.out", "merge-ahead/r0_1.out", "merge-ahead/r0_2.out"),
        new ArrayList<>(filesOf()), "the merged maps' files are deleted");
    long mergedRecords = 0;
    long mergedBytes = 0;
    for (int m = 0; m < 5; m++) {
      mergedRecords += runs.get(m).size();
      mergedBytes += originals.get(m).length();
    }
    assertEquals(mergedRecords, taken.spilledRecords(), "each merged map output's records written once");
    assertEquals(mergedBytes, taken.localFileIo()[0], "every merged map output read once");
    assertEquals(segments.get(1).length() + segments.get(2).length(), taken.localFileIo()[2],
        "the merged files' bytes are the bytes written");
    try (MergingIterator it = new SegmentMerger(INT_ORDER, factor, mergeDir.toFile()).merge(segments)) {
      assertSortedPermutation(runs, drain(it));
    }
    shuffle.releasePartition(0);
    shuffle.releaseAll();
    assertEquals(List.of(), filesOf(), "nothing is left once the reduce is done");
  }

  private List<String> filesOf() throws IOException {
    List<String> files = new ArrayList<>(filesIn(mapsDir));
    filesIn(mergeDir).forEach(f -> files.add(f));
    files.sort(null);
    return files;
  }

  /** A map output on disk that a test wraps: all but {@code open} go to the file's own segment. */
  private interface ForwardingSegment extends Segment {
    Segment file();

    @Override
    default long length() {
      return file().length();
    }

    @Override
    default boolean inMemory() {
      return false;
    }

    @Override
    default boolean streamed() {
      return true;
    }

    @Override
    default SegmentCodec codec() {
      return file().codec();
    }

    @Override
    default void copyStoredBytesTo(java.io.OutputStream out) throws IOException {
      file().copyStoredBytesTo(out);
    }

    @Override
    default void release() {
      file().release();
    }
  }

  /** A map output segment that counts how many of its kind are open at once. */
  private record CountingSegment(Segment file, AtomicInteger openNow, AtomicInteger mostOpen)
      implements ForwardingSegment {
    @Override
    public SegmentReader open() throws IOException {
      SegmentReader reader = file.open();
      mostOpen.accumulateAndGet(openNow.incrementAndGet(), Math::max);
      return new SegmentReader() {
        @Override
        public boolean next() throws IOException {
          return reader.next();
        }

        @Override
        public DataInputBuffer key() {
          return reader.key();
        }

        @Override
        public DataInputBuffer value() {
          return reader.value();
        }

        @Override
        public void close() throws IOException {
          openNow.decrementAndGet();
          reader.close();
        }
      };
    }
  }

  @Test
  void manyMapsOverSeveralPartitionsNeverOpenMoreThanTheFactorAndLeaveNoFile() throws Exception {
    Random random = new Random(5);
    int mapCount = 40;
    int partitions = 2;
    int factor = 4;
    ShuffleRegistry shuffle = new ShuffleRegistry(mapCount, partitions);
    MergeAhead merge = attach(shuffle, factor);
    AtomicInteger open = new AtomicInteger();
    AtomicInteger mostOpen = new AtomicInteger();
    List<List<List<KV>>> runs = List.of(new ArrayList<>(), new ArrayList<>());
    for (int m = 0; m < mapCount; m++) {
      List<List<KV>> mapRuns = new ArrayList<>();
      for (int p = 0; p < partitions; p++) {
        List<KV> run = sortedRun(random, m * partitions + p, 50 + random.nextInt(200), 1_000);
        mapRuns.add(run);
        runs.get(p).add(run);
      }
      MapOutput written = mapOutput(mapRuns);
      Segment[] counted = new Segment[partitions];
      for (int p = 0; p < partitions; p++) {
        counted[p] = new CountingSegment(written.partition(p), open, mostOpen);
      }
      shuffle.publish(m, new MapOutput(counted));
      if (m % 3 == 0) {
        merge.awaitIdle(); // sometimes several outputs come while a merge runs
      }
    }
    merge.awaitIdle();
    assertTrue(mostOpen.get() <= factor, "a merge opened " + mostOpen.get() + " map outputs at once");
    for (int p = 0; p < partitions; p++) {
      ShuffledPartition taken = shuffle.take(p);
      List<Segment> segments = taken.segments();
      assertTrue(segments.size() < mapCount / 2, "merged ahead: " + segments.size() + " files left");
      try (MergingIterator it = new SegmentMerger(INT_ORDER, factor, mergeDir.resolve("reduce").toFile())
          .merge(segments)) {
        assertSortedPermutation(runs.get(p), drain(it));
      }
      assertTrue(taken.spilledRecords() > 0);
    }
    shuffle.releasePartition(0);
    assertTrue(filesIn(mergeDir.resolve("merge-ahead")).stream().allMatch(f -> f.startsWith("r1_")),
        "partition 0's merged files go with its reduce: " + filesIn(mergeDir));
    shuffle.releasePartition(1);
    shuffle.releaseAll();
    assertEquals(List.of(), filesOf(), "no map output or merged file is left");
  }

  @Test
  void aFailedMergeFailsTheReduceWithItsCauseAndLeavesTheMapOutputsForTheNextAttempt() throws Exception {
    ShuffleRegistry shuffle = new ShuffleRegistry(4, 1);
    MergeAhead merge = attach(shuffle, 2);
    List<Segment> originals = new ArrayList<>();
    for (int m = 0; m < 2; m++) {
      List<KV> run = sortedRun(new Random(m), m, 1_000, 100);
      MapOutput output = mapOutput(List.of(run));
      originals.add(output.partition(0));
      if (m == 1) {
        // the second map's file loses its end: its merge reads past it
        File file = ((FileSegment) output.partition(0)).file();
        try (RandomAccessFile f = new RandomAccessFile(file, "rw")) {
          f.setLength(f.length() / 2);
        }
      }
      shuffle.publish(m, output);
      merge.awaitIdle();
    }
    IOException failure = assertThrows(IOException.class, () -> shuffle.take(0));
    assertTrue(failure.getMessage().contains("partition 0's map outputs on disk ahead of its reduce failed"),
        failure.getMessage());
    assertEquals(List.of(), filesIn(mergeDir), "the failed merge's file is deleted");
    assertEquals(originals, shuffle.take(0).segments(), "a second attempt gets the map outputs as they were");
    shuffle.releaseAll();
  }

  /** A map output whose records are read only once {@code go} opens: a merge of it stays under way. */
  private record HeldSegment(Segment file, CountDownLatch reading, CountDownLatch go) implements ForwardingSegment {
    @Override
    public SegmentReader open() throws IOException {
      reading.countDown();
      try {
        go.await();
      } catch (InterruptedException e) {
        throw new java.io.InterruptedIOException();
      }
      return file.open();
    }
  }

  @Test
  void releasingTheShuffleStopsAMergeUnderWayAndDeletesItsFile() throws Exception {
    ShuffleRegistry shuffle = new ShuffleRegistry(10, 1);
    attach(shuffle, 2);
    CountDownLatch reading = new CountDownLatch(1);
    CountDownLatch go = new CountDownLatch(1);
    for (int m = 0; m < 2; m++) {
      List<KV> run = sortedRun(new Random(m), m, 50_000, 1_000_000); // several cancel checks' worth
      MapOutput output = mapOutput(List.of(run));
      shuffle.publish(m, new MapOutput(new Segment[] {new HeldSegment(output.partition(0), reading, go)}));
    }
    reading.await();
    Thread release = new Thread(shuffle::releaseAll);
    release.start();
    while (!shuffle.closed()) {
      Thread.onSpinWait();
    }
    go.countDown();
    release.join();
    assertEquals(List.of(), filesOf(), "the job's shuffle is gone, the merge's file with it");
    IOException stopped = assertThrows(IOException.class, () -> shuffle.take(0));
    assertTrue(stopped.getMessage().contains("called off"), "the merge stopped before its end: " + stopped);
  }
}
