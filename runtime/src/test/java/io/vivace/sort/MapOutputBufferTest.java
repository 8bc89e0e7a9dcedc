package io.vivace.sort;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.vivace.localdisk.ScratchDir;
import io.vivace.segment.Segment;
import io.vivace.segment.SegmentCodec;
import io.vivace.segment.SegmentReader;
import io.vivace.segment.SegmentWriter;
import io.vivace.shuffle.MapOutput;
import io.vivace.shuffle.ShuffleMemory;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The map-side sort buffer on real Hadoop serialisations and comparators: whatever the spill
 * pattern, every partition of the output must hold exactly the records collected for it, in
 * raw-comparator order, and the buffer must leave no files behind once the output is released.
 * {@link CompressedMapOutputBufferTest} runs the same cases with each codec.
 */
class MapOutputBufferTest {

  static final long ONE_MB = 1L << 20;
  static final long LARGE = 64L << 20;

  @TempDir
  Path spillDir;

  final Configuration conf = new Configuration();
  private final Counters counters = new Counters();

  /** How the buffer stores its spills and output. */
  SegmentCodec codec() {
    return SegmentCodec.NONE;
  }

  /** One collected record; values are unique, which makes multiset comparisons exact. */
  record Rec(int partition, String key, String value) {
  }

  private MapOutputCounters mapCounters() {
    return new MapOutputCounters(counters.findCounter(TaskCounter.MAP_OUTPUT_RECORDS),
        counters.findCounter(TaskCounter.MAP_OUTPUT_BYTES),
        counters.findCounter(TaskCounter.SPILLED_RECORDS),
        counters.findCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES));
  }

  long counter(TaskCounter c) {
    return counters.findCounter(c).getValue();
  }

  <K, V> MapOutputBuffer<K, V> buffer(Class<K> keyClass, Class<V> valueClass, int partitions,
                                              long limit, Combiner combiner, int minSpillsForCombine,
                                              int sortFactor, ShuffleMemory memory) throws IOException {
    SerializationFactory factory = new SerializationFactory(conf);
    RawComparator<?> comparator = WritableComparator.get(
        keyClass.asSubclass(org.apache.hadoop.io.WritableComparable.class), conf);
    MapOutputBuffer.Settings settings = new MapOutputBuffer.Settings(partitions, limit, comparator,
        combiner, minSpillsForCombine, sortFactor, ScratchDir.of(spillDir.toFile()), memory, mapCounters(), codec());
    return new MapOutputBuffer<>(settings, factory.getSerializer(keyClass), factory.getSerializer(valueClass));
  }

  MapOutputBuffer<Text, Text> textBuffer(int partitions, long limit, int sortFactor, ShuffleMemory memory)
      throws IOException {
    return buffer(Text.class, Text.class, partitions, limit, null, 3, sortFactor, memory);
  }

  static List<Rec> randomRecords(long seed, int n, int partitions, int usedEvery) {
    Random random = new Random(seed);
    List<Rec> records = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int partition = random.nextInt((partitions + usedEvery - 1) / usedEvery) * usedEvery;
      StringBuilder key = new StringBuilder();
      int keyLength = random.nextInt(12);
      for (int c = 0; c < keyLength; c++) {
        key.append((char) ('a' + random.nextInt(6)));
      }
      String value = "v" + i + "-" + "x".repeat(random.nextInt(30));
      records.add(new Rec(partition, key.toString(), value));
    }
    return records;
  }

  static void collectAll(MapOutputBuffer<Text, Text> buffer, List<Rec> records) throws Exception {
    Text key = new Text();
    Text value = new Text();
    for (Rec r : records) {
      key.set(r.key());
      value.set(r.value());
      buffer.collect(key, value, r.partition());
    }
  }

  /** Reads a segment of Text records; asserts raw key order while reading. */
  private static List<String[]> readText(Segment segment) throws IOException {
    RawComparator<?> raw = WritableComparator.get(Text.class);
    List<String[]> out = new ArrayList<>();
    byte[] previous = null;
    try (SegmentReader reader = segment.open()) {
      while (reader.next()) {
        byte[] keyBytes = remaining(reader.key());
        if (previous != null) {
          assertTrue(compareRaw(raw, previous, keyBytes) <= 0, "keys out of order in a segment");
        }
        previous = keyBytes;
        Text k = new Text();
        Text v = new Text();
        k.readFields(reader.key());
        v.readFields(reader.value());
        out.add(new String[] {k.toString(), v.toString()});
      }
    }
    return out;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compareRaw(RawComparator raw, byte[] a, byte[] b) {
    return raw.compare(a, 0, a.length, b, 0, b.length);
  }

  private static byte[] remaining(DataInputBuffer in) {
    return Arrays.copyOfRange(in.getData(), in.getPosition(), in.getLength());
  }

  /** Asserts that {@code output} holds exactly {@code records}: right partitions, sorted, same multiset. */
  static void assertOutputHolds(MapOutput output, List<Rec> records, int partitions) throws IOException {
    assertEquals(partitions, output.partitions());
    Map<Integer, List<String>> expected = new TreeMap<>();
    for (Rec r : records) {
      expected.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(r.key() + "\t" + r.value());
    }
    for (int p = 0; p < partitions; p++) {
      List<String> want = expected.getOrDefault(p, List.of());
      Segment segment = output.partition(p);
      if (want.isEmpty()) {
        assertNull(segment, "partition " + p + " received no records and must have no segment");
        continue;
      }
      assertNotNull(segment, "partition " + p + " lost its records");
      List<String> got = new ArrayList<>();
      for (String[] kv : readText(segment)) {
        got.add(kv[0] + "\t" + kv[1]);
      }
      List<String> sortedWant = new ArrayList<>(want);
      sortedWant.sort(Comparator.naturalOrder());
      List<String> sortedGot = new ArrayList<>(got);
      sortedGot.sort(Comparator.naturalOrder());
      assertEquals(sortedWant, sortedGot, "records of partition " + p);
    }
  }

  List<String> filesLeft() throws IOException {
    try (Stream<Path> files = Files.walk(spillDir)) {
      return files.filter(Files::isRegularFile).map(p -> spillDir.relativize(p).toString()).toList();
    }
  }

  static boolean allInMemory(MapOutput output, boolean expected) {
    for (int p = 0; p < output.partitions(); p++) {
      Segment s = output.partition(p);
      if (s != null && s.inMemory() != expected) {
        return false;
      }
    }
    return true;
  }

  @Test
  void withoutSpillOutputStaysInMemoryAndIsSortedPerPartition() throws Exception {
    ShuffleMemory memory = new ShuffleMemory(LARGE);
    MapOutputBuffer<Text, Text> buffer = textBuffer(4, 16 * ONE_MB, 10, memory);
    List<Rec> records = randomRecords(1, 5_000, 4, 1);
    collectAll(buffer, records);
    MapOutput output = buffer.finish();

    assertOutputHolds(output, records, 4);
    assertTrue(allInMemory(output, true), "an output that fits the shuffle budget stays on the heap");
    assertEquals(output.totalBytes(), memory.used(), "the in-memory output is charged to the budget");
    assertEquals(records.size(), counter(TaskCounter.MAP_OUTPUT_RECORDS));
    assertEquals(0, counter(TaskCounter.SPILLED_RECORDS), "nothing spilled");
    assertEquals(output.totalBytes(), counter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES));
    assertEquals(List.of(), filesLeft());

    output.release();
    assertEquals(0, memory.used(), "releasing the output gives its bytes back");
  }

  @Test
  void withoutSpillButNoShuffleBudgetOutputGoesToOneLocalFile() throws Exception {
    ShuffleMemory memory = new ShuffleMemory(0);
    MapOutputBuffer<Text, Text> buffer = textBuffer(3, 16 * ONE_MB, 10, memory);
    List<Rec> records = randomRecords(2, 3_000, 3, 1);
    collectAll(buffer, records);
    MapOutput output = buffer.finish();

    assertOutputHolds(output, records, 3);
    assertTrue(allInMemory(output, false));
    assertEquals(0, memory.used());
    assertEquals(1, filesLeft().size(), "one file holds every partition: " + filesLeft());
    output.release();
    assertEquals(List.of(), filesLeft(), "the last released partition deletes the file");
  }

  /** Bytes the current thread has allocated on the heap so far (HotSpot's per-thread counter). */
  private static long allocatedByThisThread() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
  }

  /**
   * A raw output that the shuffle budget cannot hold goes from the sort buffer straight to its
   * file, without a heap copy of the whole output on the way (sorting the buffer's index still
   * allocates a little); one that fits, even exactly, is kept on the heap and charged to the budget.
   */
  @Test
  void rawOutputOverTheBudgetGoesToDiskWithoutAHeapCopy() throws Exception {
    assumeFalse(codec().compresses(), "a compressed output's size is known only once it is written");
    List<Rec> records = new ArrayList<>();
    for (Rec r : randomRecords(3, 40_000, 2, 1)) {
      records.add(new Rec(r.partition(), r.key(), r.value() + "y".repeat(r.value().length() * 15)));
    }
    ShuffleMemory large = new ShuffleMemory(LARGE);
    MapOutputBuffer<Text, Text> first = textBuffer(2, 48 * ONE_MB, 10, large);
    collectAll(first, records);
    long before = allocatedByThisThread();
    MapOutput kept = first.finish();
    long keptAllocation = allocatedByThisThread() - before;
    long size = kept.totalBytes();
    assertTrue(allInMemory(kept, true));
    assertEquals(0, counter(TaskCounter.SPILLED_RECORDS), "the buffer never spilled");
    assertTrue(keptAllocation >= size,
        "an output of " + size + " bytes kept on the heap allocated " + keptAllocation);
    kept.release();

    ShuffleMemory tooSmall = new ShuffleMemory(size - 1);
    MapOutputBuffer<Text, Text> second = textBuffer(2, 48 * ONE_MB, 10, tooSmall);
    collectAll(second, records);
    before = allocatedByThisThread();
    MapOutput written = second.finish();
    long writtenAllocation = allocatedByThisThread() - before;
    assertTrue(allInMemory(written, false), "one byte over the budget goes to disk");
    assertEquals(size, written.totalBytes(), "the same segments on disk as on the heap");
    assertEquals(0, tooSmall.used(), "nothing was charged to the budget");
    assertTrue(writtenAllocation < size / 4,
        "an output of " + size + " bytes written to disk allocated " + writtenAllocation + " on the heap");
    assertEquals(records.size(), counter(TaskCounter.SPILLED_RECORDS), "the output file counts as spilled");
    assertOutputHolds(written, records, 2);
    written.release();
    assertEquals(List.of(), filesLeft());

    ShuffleMemory exact = new ShuffleMemory(size);
    MapOutputBuffer<Text, Text> third = textBuffer(2, 48 * ONE_MB, 10, exact);
    collectAll(third, records);
    MapOutput fits = third.finish();
    assertTrue(allInMemory(fits, true), "an output exactly the budget's size stays on the heap");
    assertEquals(size, exact.used());
    assertOutputHolds(fits, records, 2);
    fits.release();
    assertEquals(0, exact.used());
  }

  @ParameterizedTest(name = "sort factor {0}")
  @ValueSource(ints = {2, 100})
  void tinyBufferSpillsManyTimesAndMergesToTheSameRecords(int sortFactor) throws Exception {
    ShuffleMemory memory = new ShuffleMemory(LARGE);
    MapOutputBuffer<Text, Text> buffer = textBuffer(5, ONE_MB, sortFactor, memory);
    List<Rec> records = randomRecords(3, 80_000, 5, 1);
    collectAll(buffer, records);
    MapOutput output = buffer.finish();

    assertOutputHolds(output, records, 5);
    assertTrue(allInMemory(output, false), "a spilled output is read from disk");
    assertEquals(0, memory.used());
    assertEquals(records.size(), counter(TaskCounter.MAP_OUTPUT_RECORDS));
    // Each record is written once by its spill and once more by the final merge (Hadoop counts both).
    assertTrue(counter(TaskCounter.SPILLED_RECORDS) >= 2L * records.size(),
        "several spills and a merge expected, SPILLED_RECORDS=" + counter(TaskCounter.SPILLED_RECORDS));
    if (sortFactor == 2) {
      // four or more spills per partition with a factor of 2: intermediate merges rewrite records
      assertTrue(counter(TaskCounter.SPILLED_RECORDS) > 2L * records.size(),
          "intermediate merges expected, SPILLED_RECORDS=" + counter(TaskCounter.SPILLED_RECORDS));
    }
    output.release();
    assertEquals(List.of(), filesLeft(), "spill, merge and output files are all removed");
  }

  @Test
  void manyPartitionsWithSomeEmptyWithoutSpill() throws Exception {
    ShuffleMemory memory = new ShuffleMemory(LARGE);
    MapOutputBuffer<Text, Text> buffer = textBuffer(64, 16 * ONE_MB, 10, memory);
    List<Rec> records = randomRecords(4, 4_000, 64, 3);
    collectAll(buffer, records);
    MapOutput output = buffer.finish();
    assertOutputHolds(output, records, 64);
    for (int p = 0; p < 64; p++) {
      assertEquals(p % 3 == 0, output.partition(p) != null, "partition " + p);
    }
    output.release();
    assertEquals(0, memory.used());
  }

  @Test
  void manyPartitionsWithSomeEmptyAfterSpills() throws Exception {
    MapOutputBuffer<Text, Text> buffer = textBuffer(64, ONE_MB, 4, new ShuffleMemory(LARGE));
    List<Rec> records = randomRecords(5, 60_000, 64, 5);
    collectAll(buffer, records);
    MapOutput output = buffer.finish();
    assertOutputHolds(output, records, 64);
    for (int p = 0; p < 64; p++) {
      assertEquals(p % 5 == 0, output.partition(p) != null, "partition " + p);
    }
    output.release();
    assertEquals(List.of(), filesLeft());
  }

  @Test
  void emptyBufferHasNoSegments() throws Exception {
    ShuffleMemory memory = new ShuffleMemory(LARGE);
    MapOutput output = textBuffer(7, ONE_MB, 10, memory).finish();
    assertEquals(7, output.partitions());
    for (int p = 0; p < 7; p++) {
      assertNull(output.partition(p));
    }
    assertEquals(0, output.totalBytes());
    output.release();
    assertEquals(0, memory.used());
    assertEquals(List.of(), filesLeft());
  }

  @Test
  void singleRecordLargerThanTheWholeBuffer() throws Exception {
    MapOutputBuffer<Text, Text> buffer = textBuffer(2, ONE_MB, 10, new ShuffleMemory(LARGE));
    List<Rec> records = new ArrayList<>();
    String huge = "H".repeat(3 * (int) ONE_MB);
    records.add(new Rec(1, "huge-first", huge));
    records.addAll(randomRecords(6, 2_000, 2, 1));
    records.add(new Rec(0, "huge-middle", huge + "m"));
    records.addAll(randomRecords(7, 2_000, 2, 1));
    records.add(new Rec(1, "huge-last", huge + "l"));
    collectAll(buffer, records);
    MapOutput output = buffer.finish();
    assertOutputHolds(output, records, 2);
    output.release();
    assertEquals(List.of(), filesLeft());
  }

  @Test
  void recordThatOverflowsTheFreeSpaceButFitsTheLimit() throws Exception {
    MapOutputBuffer<Text, Text> buffer = textBuffer(3, ONE_MB, 10, new ShuffleMemory(LARGE));
    List<Rec> records = new ArrayList<>();
    // ~900 KB of small records, then a 400 KB record: too big for what is left, small enough alone
    for (int i = 0; i < 9_000; i++) {
      records.add(new Rec(i % 3, "k" + (i * 7919 % 9_000), "v" + i + "-" + "y".repeat(70)));
    }
    records.add(new Rec(2, "big", "B".repeat(400 * 1024)));
    for (int i = 0; i < 100; i++) {
      records.add(new Rec(i % 3, "after" + i, "w" + i));
    }
    collectAll(buffer, records);
    MapOutput output = buffer.finish();
    assertOutputHolds(output, records, 3);
    output.release();
    assertEquals(List.of(), filesLeft());
  }

  @Test
  void zeroLengthKeysAndValuesSpillAndMerge() throws Exception {
    MapOutputBuffer<NullWritable, NullWritable> buffer = buffer(NullWritable.class, NullWritable.class, 3,
        ONE_MB, null, 3, 3, new ShuffleMemory(LARGE));
    int[] perPartition = {100_000, 0, 40_001};
    for (int p = 0; p < perPartition.length; p++) {
      for (int i = 0; i < perPartition[p]; i++) {
        buffer.collect(NullWritable.get(), NullWritable.get(), p);
      }
    }
    MapOutput output = buffer.finish();
    for (int p = 0; p < perPartition.length; p++) {
      Segment s = output.partition(p);
      if (perPartition[p] == 0) {
        assertNull(s);
        continue;
      }
      long n = 0;
      try (SegmentReader reader = s.open()) {
        while (reader.next()) {
          assertEquals(0, reader.key().getLength() - reader.key().getPosition());
          assertEquals(0, reader.value().getLength() - reader.value().getPosition());
          n++;
        }
      }
      assertEquals(perPartition[p], n, "records of partition " + p);
    }
    assertEquals(0, counter(TaskCounter.MAP_OUTPUT_BYTES));
    output.release();
    assertEquals(List.of(), filesLeft());
  }

  @Test
  void binaryValuesSurviveByteForByte() throws Exception {
    MapOutputBuffer<IntWritable, BytesWritable> buffer = buffer(IntWritable.class, BytesWritable.class, 2,
        ONE_MB, null, 3, 10, new ShuffleMemory(LARGE));
    Random random = new Random(8);
    Map<Integer, byte[]> expected = new TreeMap<>();
    for (int i = 0; i < 3_000; i++) {
      byte[] bytes = new byte[random.nextInt(2_000)];
      random.nextBytes(bytes);
      int key = random.nextInt() & 0x7fffffff;
      while (expected.containsKey(key)) {
        key++;
      }
      expected.put(key, bytes);
      buffer.collect(new IntWritable(key), new BytesWritable(bytes), key % 2);
    }
    MapOutput output = buffer.finish();
    Map<Integer, byte[]> got = new TreeMap<>();
    for (int p = 0; p < 2; p++) {
      int previous = Integer.MIN_VALUE;
      try (SegmentReader reader = output.partition(p).open()) {
        while (reader.next()) {
          IntWritable k = new IntWritable();
          BytesWritable v = new BytesWritable();
          k.readFields(reader.key());
          v.readFields(reader.value());
          assertTrue(previous <= k.get(), "IntWritable order");
          previous = k.get();
          assertEquals(p, k.get() % 2);
          got.put(k.get(), v.copyBytes());
        }
      }
    }
    assertEquals(expected.keySet(), got.keySet());
    for (Map.Entry<Integer, byte[]> e : expected.entrySet()) {
      assertArrayEquals(e.getValue(), got.get(e.getKey()), "value of " + e.getKey());
    }
    output.release();
  }

  /**
   * Records as randomwriter writes them (keys up to 1,000 bytes, values up to 20,000: their length
   * headers take several bytes each) kept in memory without a spill: the output, sized from the
   * index up front, holds every byte and is charged exactly its size.
   */
  @Test
  void longRecordsKeptInMemoryWithoutSpillSurviveByteForByte() throws Exception {
    ShuffleMemory memory = new ShuffleMemory(LARGE);
    MapOutputBuffer<BytesWritable, BytesWritable> buffer = buffer(BytesWritable.class, BytesWritable.class, 2,
        LARGE, null, 3, 10, memory);
    Random random = new Random(9);
    Map<String, byte[]> expected = new TreeMap<>();
    for (int i = 0; i < 500; i++) {
      byte[] key = new byte[1 + random.nextInt(1_000)];
      random.nextBytes(key);
      byte[] value = new byte[random.nextInt(20_000)];
      random.nextBytes(value);
      expected.put(i % 2 + ":" + Arrays.toString(key), value);
      buffer.collect(new BytesWritable(key), new BytesWritable(value), i % 2);
    }
    MapOutput output = buffer.finish();
    assertTrue(allInMemory(output, true), "no spill and room in the budget: the output stays on the heap");
    assertEquals(0, counter(TaskCounter.SPILLED_RECORDS));
    assertEquals(output.totalBytes(), memory.used(), "the budget is charged the output's exact size");
    RawComparator<?> raw = WritableComparator.get(BytesWritable.class);
    Map<String, byte[]> got = new TreeMap<>();
    for (int p = 0; p < 2; p++) {
      byte[] previous = null;
      try (SegmentReader reader = output.partition(p).open()) {
        while (reader.next()) {
          byte[] keyBytes = remaining(reader.key());
          if (previous != null) {
            assertTrue(compareRaw(raw, previous, keyBytes) <= 0, "keys out of order in partition " + p);
          }
          previous = keyBytes;
          BytesWritable k = new BytesWritable();
          BytesWritable v = new BytesWritable();
          k.readFields(reader.key());
          v.readFields(reader.value());
          got.put(p + ":" + Arrays.toString(k.copyBytes()), v.copyBytes());
        }
      }
    }
    assertEquals(expected.keySet(), got.keySet());
    for (Map.Entry<String, byte[]> e : expected.entrySet()) {
      assertArrayEquals(e.getValue(), got.get(e.getKey()), "value of " + e.getKey());
    }
    output.release();
    assertEquals(0, memory.used());
  }

  /** Sums the IntWritable values of each run of equal raw keys. */
  static final class SummingCombiner implements Combiner {
    int calls;

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void combine(RawKeyValueIterator in, SegmentWriter out) throws IOException {
      calls++;
      RawComparator raw = WritableComparator.get(Text.class);
      byte[] currentKey = null;
      long sum = 0;
      IntWritable value = new IntWritable();
      DataOutputBuffer encoded = new DataOutputBuffer();
      while (in.next()) {
        byte[] key = remaining(in.getKey());
        value.readFields(in.getValue());
        if (currentKey != null && compareRaw(raw, currentKey, key) != 0) {
          emit(out, currentKey, sum, encoded);
          sum = 0;
        }
        currentKey = key;
        sum += value.get();
      }
      if (currentKey != null) {
        emit(out, currentKey, sum, encoded);
      }
    }

    private static void emit(SegmentWriter out, byte[] key, long sum, DataOutputBuffer encoded)
        throws IOException {
      encoded.reset();
      new IntWritable((int) sum).write(encoded);
      out.append(key, 0, key.length, encoded.getData(), 0, encoded.getLength());
    }
  }

  private static Map<String, Long> sumsPerKey(Segment segment) throws IOException {
    Map<String, Long> sums = new TreeMap<>();
    try (SegmentReader reader = segment.open()) {
      while (reader.next()) {
        Text k = new Text();
        IntWritable v = new IntWritable();
        k.readFields(reader.key());
        v.readFields(reader.value());
        sums.merge(k.toString(), (long) v.get(), Long::sum);
      }
    }
    return sums;
  }

  private static long recordCount(Segment segment) throws IOException {
    long n = 0;
    try (SegmentReader reader = segment.open()) {
      while (reader.next()) {
        n++;
      }
    }
    return n;
  }

  @ParameterizedTest(name = "min spills for combine {0}")
  @ValueSource(ints = {1, 3, 1_000})
  void combinerRunsOnSpillsAndOnTheMergeWhenEnoughSpills(int minSpillsForCombine) throws Exception {
    SummingCombiner combiner = new SummingCombiner();
    MapOutputBuffer<Text, IntWritable> buffer = buffer(Text.class, IntWritable.class, 2, ONE_MB,
        combiner, minSpillsForCombine, 10, new ShuffleMemory(LARGE));
    Random random = new Random(9);
    List<Map<String, Long>> expected = List.of(new TreeMap<>(), new TreeMap<>());
    Text key = new Text();
    IntWritable value = new IntWritable();
    for (int i = 0; i < 100_000; i++) {
      String k = "key" + random.nextInt(500);
      int v = random.nextInt(100);
      int p = Math.floorMod(k.hashCode(), 2);
      expected.get(p).merge(k, (long) v, Long::sum);
      key.set(k);
      value.set(v);
      buffer.collect(key, value, p);
    }
    MapOutput output = buffer.finish();
    assertTrue(combiner.calls > 2, "the combiner runs on every spill: " + combiner.calls);
    for (int p = 0; p < 2; p++) {
      assertEquals(expected.get(p), sumsPerKey(output.partition(p)), "sums of partition " + p);
      if (minSpillsForCombine <= 3) {
        // combined during the final merge as well: one record per distinct key
        assertEquals(expected.get(p).size(), recordCount(output.partition(p)), "partition " + p);
      }
    }
    output.release();
    assertEquals(List.of(), filesLeft());
  }

  /** Collects {@code n} records of {@code distinct} keys into 2 partitions; returns the sums expected. */
  private static List<Map<String, Long>> collectCountedKeys(MapOutputBuffer<Text, IntWritable> buffer,
                                                             int n, int distinct) throws Exception {
    Random random = new Random(11);
    List<Map<String, Long>> expected = List.of(new TreeMap<>(), new TreeMap<>());
    Text key = new Text();
    IntWritable value = new IntWritable();
    for (int i = 0; i < n; i++) {
      String k = "key" + random.nextInt(distinct);
      int v = random.nextInt(100);
      int p = Math.floorMod(k.hashCode(), 2);
      expected.get(p).merge(k, (long) v, Long::sum);
      key.set(k);
      value.set(v);
      buffer.collect(key, value, p);
    }
    return expected;
  }

  /**
   * With a combiner and a large buffer, output is sorted and combined a chunk at a time and the
   * combined chunks stay in memory: nothing touches the disk, and the final merge combines again.
   */
  @Test
  void withACombinerTheBufferIsCombinedInChunksInMemory() throws Exception {
    SummingCombiner combiner = new SummingCombiner();
    MapOutputBuffer<Text, IntWritable> buffer = buffer(Text.class, IntWritable.class, 2, 64 * ONE_MB,
        combiner, 1_000, 10, new ShuffleMemory(LARGE));
    List<Map<String, Long>> expected = collectCountedKeys(buffer, 400_000, 300);
    MapOutput output = buffer.finish();
    assertTrue(combiner.calls > 2 * 2, "several chunks were combined: " + combiner.calls);
    assertEquals(0, counter(TaskCounter.SPILLED_RECORDS), "nothing was written to disk");
    assertTrue(allInMemory(output, true));
    for (int p = 0; p < 2; p++) {
      assertEquals(expected.get(p), sumsPerKey(output.partition(p)), "sums of partition " + p);
      assertEquals(expected.get(p).size(), recordCount(output.partition(p)), "one record per key, partition " + p);
    }
    output.release();
    assertEquals(List.of(), filesLeft());
  }

  /** Combined chunks that do not shrink are merged to a spill file once they fill half the buffer. */
  @Tag("slow")
  @Test
  void combinedChunksThatDoNotShrinkGoToDisk() throws Exception {
    SummingCombiner combiner = new SummingCombiner();
    MapOutputBuffer<Text, IntWritable> buffer = buffer(Text.class, IntWritable.class, 2, 16 * ONE_MB,
        combiner, 3, 10, new ShuffleMemory(LARGE));
    List<Map<String, Long>> expected = collectCountedKeys(buffer, 600_000, 10_000_000);
    MapOutput output = buffer.finish();
    assertTrue(counter(TaskCounter.SPILLED_RECORDS) > 0, "combined chunks were spilled");
    for (int p = 0; p < 2; p++) {
      assertEquals(expected.get(p), sumsPerKey(output.partition(p)), "sums of partition " + p);
    }
    output.release();
    assertEquals(List.of(), filesLeft());
  }

  @Test
  void abortRemovesSpillFiles() throws Exception {
    MapOutputBuffer<Text, Text> buffer = textBuffer(2, ONE_MB, 10, new ShuffleMemory(LARGE));
    collectAll(buffer, randomRecords(10, 60_000, 2, 1));
    assertFalse(filesLeft().isEmpty(), "a 1 MB buffer has spilled by now");
    buffer.abort();
    assertEquals(List.of(), filesLeft());
  }

  @Test
  void buffersOfLaterTasksOnTheSameThreadStartClean() throws Exception {
    // the sort arrays are reused by the next task of a worker thread
    MapOutputBuffer<Text, Text> first = textBuffer(2, ONE_MB, 10, new ShuffleMemory(LARGE));
    collectAll(first, randomRecords(11, 30_000, 2, 1));
    first.finish().release();
    MapOutputBuffer<Text, Text> second = textBuffer(3, 16 * ONE_MB, 10, new ShuffleMemory(LARGE));
    List<Rec> records = randomRecords(12, 1_000, 3, 1);
    collectAll(second, records);
    MapOutput output = second.finish();
    assertOutputHolds(output, records, 3);
    output.release();
  }
}
