package io.vivace.merge;

import static io.vivace.merge.SortedRuns.append;
import static io.vivace.merge.SortedRuns.assertSortedPermutation;
import static io.vivace.merge.SortedRuns.drain;
import static io.vivace.merge.SortedRuns.encodeText;
import static io.vivace.merge.SortedRuns.sortedRun;
import static io.vivace.merge.SortedRuns.stableMerge;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.merge.SortedRuns.KV;
import io.vivace.segment.FileSegment;
import io.vivace.segment.MemorySegment;
import io.vivace.segment.PartitionedFileWriter;
import io.vivace.segment.Segment;
import io.vivace.segment.SegmentWriter;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * k-way merging of sorted segments with Hadoop's raw comparators: the merged stream must be the
 * stable sort of the inputs when everything is merged in one pass, and at least a correctly
 * ordered permutation of them when {@code mapreduce.task.io.sort.factor} forces intermediate merges.
 */
class SegmentMergerTest {

  private static final RawComparator<?> INT_ORDER = WritableComparator.get(IntWritable.class);

  @TempDir
  Path segmentsDir;
  @TempDir
  Path mergeDir;

  private int files;

  private static Segment memorySegment(List<KV> records) throws IOException {
    DataOutputBuffer bytes = new DataOutputBuffer();
    bytes.write(new byte[7]); // the segment need not start at offset 0 of its array
    SegmentWriter writer = new SegmentWriter(bytes);
    for (KV kv : records) {
      append(writer, kv);
    }
    return new MemorySegment(bytes.getData(), 7, (int) writer.position(), null);
  }

  private Segment fileSegment(List<KV> records) throws IOException {
    File file = segmentsDir.resolve("segment" + (files++) + ".out").toFile();
    // partition 0 of the file is padding so the segment starts at a non-zero offset
    PartitionedFileWriter out = new PartitionedFileWriter(file, 2);
    append(out.startPartition(0), new KV(-1, "padding"));
    SegmentWriter writer = out.startPartition(1);
    for (KV kv : records) {
      append(writer, kv);
    }
    FileSegment[] segments = out.finish();
    if (records.isEmpty()) {
      throw new IllegalArgumentException("use a memory segment for an empty run");
    }
    return segments[1];
  }

  private List<String> filesIn(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void kWayMergeOfDiskAndMemorySegmentsIsAStableSort() throws Exception {
    Random random = new Random(1);
    List<List<KV>> runs = new ArrayList<>();
    List<Segment> segments = new ArrayList<>();
    for (int s = 0; s < 10; s++) {
      List<KV> run = s == 4 ? List.of() : sortedRun(random, s, 50 + random.nextInt(400), 300);
      runs.add(run);
      segments.add(s % 3 == 0 || run.isEmpty() ? memorySegment(run) : fileSegment(run));
    }
    SegmentMerger merger = new SegmentMerger(INT_ORDER, 10, mergeDir.toFile());
    try (MergingIterator it = merger.merge(segments)) {
      assertEquals(stableMerge(runs), drain(it));
    }
    assertEquals(0, merger.spilledRecords(), "one pass suffices when the factor allows all files open");
    assertEquals(List.of(), filesIn(mergeDir));
  }

  @ParameterizedTest(name = "{0} disk segments, factor {1}")
  @CsvSource({"25, 4", "9, 2", "3, 2", "40, 10", "11, 10"})
  void moreDiskSegmentsThanTheFactorMergeInIntermediatePasses(int diskSegments, int factor) throws Exception {
    Random random = new Random(diskSegments * 31L + factor);
    List<List<KV>> runs = new ArrayList<>();
    List<Segment> segments = new ArrayList<>();
    for (int s = 0; s < diskSegments; s++) {
      List<KV> run = sortedRun(random, s, 1 + random.nextInt(600), 1_000);
      runs.add(run);
      segments.add(fileSegment(run));
    }
    for (int s = 0; s < 3; s++) { // memory segments join the final pass
      List<KV> run = sortedRun(random, diskSegments + s, 200, 1_000);
      runs.add(run);
      segments.add(memorySegment(run));
    }
    List<String> inputFiles = filesIn(segmentsDir);
    SegmentMerger merger = new SegmentMerger(INT_ORDER, factor, mergeDir.toFile());
    List<KV> merged;
    try (MergingIterator it = merger.merge(segments)) {
      merged = drain(it);
    }
    assertSortedPermutation(runs, merged);
    assertTrue(merger.spilledRecords() > 0, "intermediate merges write records to disk");
    assertEquals(List.of(), filesIn(mergeDir), "intermediate files are deleted when the merge closes");
    assertEquals(inputFiles, filesIn(segmentsDir), "the caller's segments are not released by the merger");
    // and they are still readable: merging them again in one pass gives the stable sort
    try (MergingIterator again = new SegmentMerger(INT_ORDER, 1_000, mergeDir.toFile()).merge(segments)) {
      assertEquals(stableMerge(runs), drain(again));
    }
  }

  @Test
  void exactlyFactorDiskSegmentsNeedNoIntermediateMerge() throws Exception {
    Random random = new Random(3);
    List<List<KV>> runs = new ArrayList<>();
    List<Segment> segments = new ArrayList<>();
    for (int s = 0; s < 5; s++) {
      List<KV> run = sortedRun(random, s, 100, 50);
      runs.add(run);
      segments.add(fileSegment(run));
    }
    SegmentMerger merger = new SegmentMerger(INT_ORDER, 5, mergeDir.toFile());
    try (MergingIterator it = merger.merge(segments)) {
      assertEquals(stableMerge(runs), drain(it));
    }
    assertEquals(0, merger.spilledRecords());
  }

  @Test
  void factorBelowTwoIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> new SegmentMerger(INT_ORDER, 1, mergeDir.toFile()));
  }

  @Test
  void emptySegmentListMergesToNothing() throws Exception {
    SegmentMerger merger = new SegmentMerger(INT_ORDER, 2, mergeDir.toFile());
    try (MergingIterator it = merger.merge(List.of())) {
      assertFalse(it.next());
      assertFalse(it.next(), "an exhausted iterator stays exhausted");
    }
    assertEquals(0, merger.spilledRecords());
  }

  @Test
  void segmentsWithoutRecordsAreSkipped() throws Exception {
    List<Segment> segments = List.of(memorySegment(List.of()), memorySegment(List.of(new KV(5, "only"))),
        memorySegment(List.of()));
    try (MergingIterator it = new SegmentMerger(INT_ORDER, 2, mergeDir.toFile()).merge(segments)) {
      assertEquals(List.of(new KV(5, "only")), drain(it));
      assertFalse(it.next());
    }
  }

  @Test
  void equalKeysComeOutInSegmentOrder() throws Exception {
    List<List<KV>> runs = new ArrayList<>();
    List<Segment> segments = new ArrayList<>();
    for (int s = 0; s < 6; s++) {
      List<KV> run = new ArrayList<>();
      for (int i = 0; i < 20 + s; i++) {
        run.add(new KV(i < 10 ? 7 : 7 + i % 3, "s" + s + "#" + i));
      }
      run.sort(Comparator.comparingInt(KV::key)); // stable: positions stay ascending per key
      runs.add(run);
      segments.add(s % 2 == 0 ? fileSegment(run) : memorySegment(run));
    }
    // within the factor: one pass, ties broken by segment order then position
    try (MergingIterator it = new SegmentMerger(INT_ORDER, 6, mergeDir.toFile()).merge(segments)) {
      assertEquals(stableMerge(runs), drain(it));
    }
    // the iterator on its own does the same
    try (MergingIterator it = new MergingIterator(segments, INT_ORDER, new ArrayList<>())) {
      assertEquals(stableMerge(runs), drain(it));
    }
  }

  @Test
  void closingEarlyDeletesIntermediateFiles() throws Exception {
    Random random = new Random(4);
    List<Segment> segments = new ArrayList<>();
    for (int s = 0; s < 8; s++) {
      segments.add(fileSegment(sortedRun(random, s, 300, 100)));
    }
    SegmentMerger merger = new SegmentMerger(INT_ORDER, 2, mergeDir.toFile());
    MergingIterator it = merger.merge(segments);
    assertFalse(filesIn(mergeDir).isEmpty(), "intermediate merge files exist while merging");
    assertTrue(it.next());
    it.close();
    assertEquals(List.of(), filesIn(mergeDir));
  }

  @Test
  void textKeysMergeInRawTextOrder() throws Exception {
    RawComparator<?> textOrder = WritableComparator.get(Text.class);
    Random random = new Random(5);
    List<List<String>> runs = new ArrayList<>();
    List<Segment> segments = new ArrayList<>();
    for (int s = 0; s < 7; s++) {
      List<String> keys = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        // lengths over 127 give multi-byte vint length prefixes inside the key bytes
        keys.add(Integer.toString(random.nextInt(1000), 36) + "-".repeat(random.nextInt(200)));
      }
      keys.sort(Comparator.naturalOrder()); // ASCII: String order equals Text's byte order
      runs.add(keys);
      DataOutputBuffer bytes = new DataOutputBuffer();
      SegmentWriter writer = new SegmentWriter(bytes);
      for (String k : keys) {
        byte[] kb = encodeText(k);
        writer.append(kb, 0, kb.length, new byte[0], 0, 0);
      }
      segments.add(new MemorySegment(bytes.getData(), 0, (int) writer.position(), null));
    }
    List<String> expected = new ArrayList<>();
    runs.forEach(expected::addAll);
    expected.sort(Comparator.naturalOrder());
    List<String> got = new ArrayList<>();
    try (MergingIterator it = new SegmentMerger(textOrder, 3, mergeDir.toFile()).merge(segments)) {
      while (it.next()) {
        Text k = new Text();
        k.readFields(it.getKey());
        assertEquals(0, it.getValue().getLength() - it.getValue().getPosition());
        got.add(k.toString());
      }
    }
    assertEquals(expected, got);
  }

  /** A comparator Vivace knows no key prefix for: every comparison goes to it. */
  static final class DescendingInts extends WritableComparator {
    DescendingInts() {
      super(IntWritable.class, true);
    }

    @Override
    public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
      return -super.compare(b1, s1, l1, b2, s2, l2);
    }
  }

  @Test
  void comparatorWithoutKnownPrefixDecidesEveryComparison() throws Exception {
    Random random = new Random(6);
    List<List<KV>> runs = new ArrayList<>();
    List<Segment> segments = new ArrayList<>();
    for (int s = 0; s < 5; s++) {
      List<KV> run = sortedRun(random, s, 100 + random.nextInt(100), 60);
      java.util.Collections.reverse(run);
      runs.add(run);
      segments.add(memorySegment(run));
    }
    List<KV> merged;
    try (MergingIterator it = new MergingIterator(segments, new DescendingInts(), new ArrayList<>())) {
      merged = drain(it);
    }
    for (int i = 1; i < merged.size(); i++) {
      assertTrue(merged.get(i - 1).key() >= merged.get(i).key(), "descending order broken at " + i);
    }
    assertEquals(runs.stream().mapToInt(List::size).sum(), merged.size());
  }

  /** Merge threads named test-merge that note the thread of each side pass in {@code sidePasses}. */
  private static SegmentMerger.Threads recordingThreads(List<String> sidePasses) {
    return new SegmentMerger.Threads("test-merge", () -> {
      sidePasses.add(Thread.currentThread().getName());
      return WritableComparator.get(IntWritable.class);
    });
  }

  private static SegmentMerger.Threads threads(String name) {
    return new SegmentMerger.Threads(name, () -> WritableComparator.get(IntWritable.class));
  }

  @Test
  void mergeThreadsGiveTheSameRecordsAndChargeTheirFileIoToTheCaller() throws Exception {
    Random random = new Random(7);
    List<List<KV>> runs = new ArrayList<>();
    List<Segment> segments = new ArrayList<>();
    long fileBytes = 0;
    for (int s = 0; s < 14; s++) {
      // enough records for several of the hand-over batches
      List<KV> run = sortedRun(random, s, 5_000 + random.nextInt(20_000), 100_000);
      runs.add(run);
      Segment segment = s % 4 == 0 ? memorySegment(run) : fileSegment(run);
      fileBytes += segment.inMemory() ? 0 : segment.length();
      segments.add(segment);
    }
    long[] before = io.vivace.localdisk.LocalFileStatistics.ofThisThread();
    List<String> sidePasses = java.util.Collections.synchronizedList(new ArrayList<>());
    SegmentMerger merger = new SegmentMerger(INT_ORDER, 3, mergeDir.toFile(),
        io.vivace.segment.SegmentCodec.NONE, recordingThreads(sidePasses));
    try (MergingIterator it = merger.merge(segments)) {
      assertSortedPermutation(runs, drain(it));
      assertFalse(it.next(), "an exhausted iterator stays exhausted");
    }
    long[] after = io.vivace.localdisk.LocalFileStatistics.ofThisThread();
    long read = after[0] - before[0];
    long written = after[2] - before[2];
    // 10 files, factor 3: intermediate passes, two at a time on two threads
    assertTrue(merger.spilledRecords() > 0, "10 files with factor 3 need intermediate passes");
    assertFalse(sidePasses.isEmpty(), "some intermediate passes ran beside another");
    assertTrue(sidePasses.stream().allMatch("test-merge-pass"::equals), sidePasses.toString());
    assertTrue(written > 0, "the intermediate files count as written for the caller");
    assertEquals(fileBytes + written, read, "the caller is charged every input file once and every "
        + "intermediate file once, whichever thread read them");
    assertEquals(List.of(), filesIn(mergeDir));
    try (MergingIterator it = new SegmentMerger(INT_ORDER, 100, mergeDir.toFile(),
        io.vivace.segment.SegmentCodec.NONE, threads("test-merge")).merge(segments)) {
      assertEquals(stableMerge(runs), drain(it), "one pass on its own thread is the stable sort");
    }
  }

  @Test
  void withMergeThreadsASingleIntermediatePassRunsAsTwoSideBySide() throws Exception {
    Random random = new Random(11);
    List<List<KV>> runs = new ArrayList<>();
    List<Segment> segments = new ArrayList<>();
    for (int s = 0; s < 16; s++) {
      List<KV> run = sortedRun(random, s, 1_000 + random.nextInt(2_000), 100_000);
      runs.add(run);
      segments.add(fileSegment(run));
    }
    List<String> sidePasses = java.util.Collections.synchronizedList(new ArrayList<>());
    // 16 files, factor 10: one pass of the 7 smallest would do; two of 4 run instead
    SegmentMerger merger = new SegmentMerger(INT_ORDER, 10, mergeDir.toFile(),
        io.vivace.segment.SegmentCodec.NONE, recordingThreads(sidePasses));
    List<Long> smallest = segments.stream().map(Segment::length).sorted().limit(8).toList();
    long smallestRecords = 0;
    for (int s = 0; s < segments.size(); s++) {
      if (smallest.contains(segments.get(s).length())) {
        smallestRecords += runs.get(s).size();
      }
    }
    try (MergingIterator it = merger.merge(segments)) {
      assertEquals(List.of("test-merge-pass"), sidePasses, "one pass beside the caller's");
      assertEquals(2, filesIn(mergeDir).size(), "two intermediate files, 10 files left for the final pass");
      assertSortedPermutation(runs, drain(it));
    }
    assertEquals(smallestRecords, merger.spilledRecords(), "the 8 smallest segments were rewritten");
    assertEquals(List.of(), filesIn(mergeDir));
  }

  @Test
  void finalPassOnItsOwnThreadStopsWhenClosedEarly() throws Exception {
    Random random = new Random(8);
    List<Segment> segments = new ArrayList<>();
    for (int s = 0; s < 4; s++) {
      segments.add(fileSegment(sortedRun(random, s, 50_000, 1_000)));
    }
    MergingIterator it = new SegmentMerger(INT_ORDER, 10, mergeDir.toFile(),
        io.vivace.segment.SegmentCodec.NONE, threads("test-merge-early")).merge(segments);
    assertTrue(it.next());
    it.close();
    boolean running = Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.getName().equals("test-merge-early"));
    assertFalse(running, "close waits for the merge thread to end");
  }

  @Test
  void aFailureOnTheMergeThreadReachesTheConsumer() throws Exception {
    Random random = new Random(9);
    List<Segment> segments = new ArrayList<>();
    for (int s = 0; s < 3; s++) {
      segments.add(fileSegment(sortedRun(random, s, 20_000, 1_000)));
    }
    // cut the last segment's file short: its reader fails part way through
    FileSegment cut = (FileSegment) segments.get(2);
    try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(cut.file(), "rw")) {
      f.setLength(f.length() - cut.length() / 2);
    }
    IOException e = assertThrows(IOException.class, () -> {
      try (MergingIterator it = new SegmentMerger(INT_ORDER, 10, mergeDir.toFile(),
          io.vivace.segment.SegmentCodec.NONE, threads("test-merge-failing")).merge(segments)) {
        while (it.next()) {
          // drain
        }
      }
    });
    assertTrue(String.valueOf(e.getMessage()).contains("shorter"), e.toString());
  }
}
