package io.vivace.sort;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vivace.merge.KeyPrefix;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparator;
import org.junit.jupiter.api.Test;

/**
 * The index sort agrees with the job's comparator: for every key type with a known prefix, and
 * for comparators without one, with duplicates, keys sharing long prefixes, shorter keys that are
 * prefixes of longer ones, zero bytes, negative numbers and many partitions.
 */
class IndexSorterTest {

  private static final int RECORDS = 20_000;

  /** Serialised keys laid out as a MapOutputBuffer lays them out (empty values). */
  private static final class Buffer {
    final DataOutputBuffer data = new DataOutputBuffer();
    final List<int[]> records = new ArrayList<>();

    void add(Writable key, int partition) throws IOException {
      int start = data.getLength();
      key.write(data);
      records.add(new int[] {partition, start, data.getLength(), data.getLength()});
    }

    int[] meta() {
      int[] meta = new int[records.size() * MapOutputBuffer.META_INTS];
      for (int i = 0; i < records.size(); i++) {
        System.arraycopy(records.get(i), 0, meta, i * MapOutputBuffer.META_INTS, MapOutputBuffer.META_INTS);
      }
      return meta;
    }
  }

  private static void assertSortedLikeComparator(Class<? extends Writable> keyClass,
                                                 Supplier<Writable> keys, int partitions,
                                                 boolean expectPrefix) throws IOException {
    @SuppressWarnings("unchecked")
    RawComparator<Object> comparator = (RawComparator<Object>) (RawComparator<?>)
        WritableComparator.get(keyClass.asSubclass(org.apache.hadoop.io.WritableComparable.class));
    if (expectPrefix) {
      assertNotNull(KeyPrefix.forComparator(comparator), keyClass + " should have a prefix");
    }
    Random random = new Random(42);
    Buffer buffer = new Buffer();
    for (int i = 0; i < RECORDS; i++) {
      buffer.add(keys.get(), random.nextInt(partitions));
    }
    byte[] data = buffer.data.getData();
    int[] meta = buffer.meta();

    IndexSorter sorter = new IndexSorter(comparator, new SortBuffers());
    sorter.sort(data, meta, RECORDS, partitions);

    Comparator<Integer> expected = Comparator.<Integer>comparingInt(r -> meta[r * 4])
        .thenComparing((a, b) -> comparator.compare(data, meta[a * 4 + 1], meta[a * 4 + 2] - meta[a * 4 + 1],
            data, meta[b * 4 + 1], meta[b * 4 + 2] - meta[b * 4 + 1]));
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < RECORDS; i++) {
      all.add(i);
    }
    all.sort(expected);
    int[] order = sorter.order();
    for (int i = 0; i < RECORDS; i++) {
      assertEquals(0, expected.compare(all.get(i), order[i]),
          keyClass.getSimpleName() + ": position " + i + " holds a record out of order");
    }
    for (int p = 0; p < partitions; p++) {
      for (int i = sorter.partitionStart(p); i < sorter.partitionStart(p + 1); i++) {
        assertEquals(p, meta[order[i] * 4], "partition range " + p);
      }
    }
    assertEquals(RECORDS, sorter.partitionStart(partitions));
  }

  /** Text keys: many duplicates, shared prefixes longer than 8 bytes, prefixes of each other, NULs. */
  @Test
  void textKeys() throws IOException {
    Random random = new Random(1);
    String[] stems = {"", "a", "ab", "abcdefgh", "abcdefghi", "abcdefgh\0", "zz", "\u00e9t\u00e9", "\0"};
    assertSortedLikeComparator(Text.class, () -> {
      String s = stems[random.nextInt(stems.length)];
      if (random.nextBoolean()) {
        s += (char) random.nextInt(3) + Integer.toString(random.nextInt(50));
      }
      return new Text(s);
    }, 7, true);
  }

  @Test
  void bytesWritableKeysOfRandomLengthIncludingEmpty() throws IOException {
    Random random = new Random(2);
    assertSortedLikeComparator(BytesWritable.class, () -> {
      byte[] b = new byte[random.nextInt(12)];
      for (int i = 0; i < b.length; i++) {
        b[i] = (byte) (random.nextInt(3) == 0 ? 0 : random.nextInt(256));
      }
      return new BytesWritable(b);
    }, 3, true);
  }

  @Test
  void longKeysAcrossTheSignedRange() throws IOException {
    Random random = new Random(3);
    long[] edges = {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE};
    assertSortedLikeComparator(LongWritable.class, () -> new LongWritable(
        random.nextInt(4) == 0 ? edges[random.nextInt(edges.length)] : random.nextLong() >> random.nextInt(60)),
        1, true);
  }

  @Test
  void intKeysAcrossTheSignedRange() throws IOException {
    Random random = new Random(4);
    assertSortedLikeComparator(IntWritable.class, () -> new IntWritable(
        random.nextInt(5) == 0 ? Integer.MIN_VALUE + random.nextInt(3) : random.nextInt() >> random.nextInt(30)),
        1000, true);
  }

  /** A key type whose comparator has no known prefix is sorted by the comparator alone. */
  @Test
  void comparatorWithoutKnownPrefix() throws IOException {
    assertNull(KeyPrefix.forComparator(new org.apache.hadoop.io.BooleanWritable.Comparator() {
    }));
    Random random = new Random(5);
    assertSortedLikeComparator(org.apache.hadoop.io.DoubleWritable.class,
        () -> new org.apache.hadoop.io.DoubleWritable(random.nextGaussian()), 4, false);
  }
}
