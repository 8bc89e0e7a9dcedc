package io.vivace.sort;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Random;
import java.util.function.IntFunction;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparator;
import org.junit.jupiter.api.Test;

/**
 * The combiner's sort, which groups byte-identical keys before sorting one key per group, against
 * Hadoop's comparators: every record exactly once, partitions in order, keys in comparator order,
 * the records of one key in the order they were collected, marked as repeating the key before
 * them; and the fallback to sorting record by record when keys are mostly distinct.
 */
class GroupingSorterTest {

  /** Records laid out as a MapOutputBuffer lays them out: key bytes, then a 4-byte value. */
  private static final class Chunk {
    final DataOutputBuffer data = new DataOutputBuffer();
    int[] meta = new int[0];
    int records;

    void add(Writable key, int partition) throws IOException {
      int keyStart = data.getLength();
      key.write(data);
      int valueStart = data.getLength();
      data.writeInt(records);
      if (meta.length < (records + 1) * MapOutputBuffer.META_INTS) {
        meta = java.util.Arrays.copyOf(meta, Math.max(64, meta.length * 2));
      }
      int m = records * MapOutputBuffer.META_INTS;
      meta[m + MapOutputBuffer.PARTITION] = partition;
      meta[m + MapOutputBuffer.KEY_START] = keyStart;
      meta[m + MapOutputBuffer.VALUE_START] = valueStart;
      meta[m + MapOutputBuffer.VALUE_END] = data.getLength();
      records++;
    }

    int compareKeys(RawComparator<?> comparator, int a, int b) {
      int ma = a * MapOutputBuffer.META_INTS;
      int mb = b * MapOutputBuffer.META_INTS;
      int ka = meta[ma + MapOutputBuffer.KEY_START];
      int kb = meta[mb + MapOutputBuffer.KEY_START];
      return comparator.compare(data.getData(), ka, meta[ma + MapOutputBuffer.VALUE_START] - ka,
          data.getData(), kb, meta[mb + MapOutputBuffer.VALUE_START] - kb);
    }

    boolean sameKeyBytes(int a, int b) {
      int ma = a * MapOutputBuffer.META_INTS;
      int mb = b * MapOutputBuffer.META_INTS;
      byte[] d = data.getData();
      return java.util.Arrays.equals(d, meta[ma + MapOutputBuffer.KEY_START], meta[ma + MapOutputBuffer.VALUE_START],
          d, meta[mb + MapOutputBuffer.KEY_START], meta[mb + MapOutputBuffer.VALUE_START]);
    }
  }

  /** Random keys, each in the partition its hash gives, as Hadoop's HashPartitioner does. */
  private static Chunk chunk(int records, int partitions, long seed, IntFunction<Writable> keys) throws IOException {
    Random random = new Random(seed);
    Chunk chunk = new Chunk();
    for (int i = 0; i < records; i++) {
      Writable key = keys.apply(random.nextInt(Integer.MAX_VALUE));
      chunk.add(key, Math.floorMod(key.hashCode(), partitions));
    }
    return chunk;
  }

  /** Sorts the chunk and checks the order; returns whether the sorter grouped. */
  private static boolean sortAndCheck(Chunk chunk, int partitions, RawComparator<?> comparator) {
    return sortAndCheck(chunk, partitions, comparator, chunk.data.getData());
  }

  /** As above, sorting the chunk's records in {@code data}, which holds the chunk's bytes. */
  private static boolean sortAndCheck(Chunk chunk, int partitions, RawComparator<?> comparator, byte[] data) {
    GroupingSorter sorter = new GroupingSorter(comparator, new IndexSorter(comparator, new SortBuffers()));
    return sortAndCheck(sorter, chunk, partitions, comparator, data);
  }

  /** Sorts with {@code sorter}, which may have grouped some of the records as they were added. */
  private static boolean sortAndCheck(GroupingSorter sorter, Chunk chunk, int partitions,
                                      RawComparator<?> comparator, byte[] data) {
    sorter.sort(data, chunk.meta, chunk.records, partitions);
    int[] order = sorter.order();
    boolean[] seen = new boolean[chunk.records];
    assertEquals(0, sorter.partitionStart(0));
    assertEquals(chunk.records, sorter.partitionStart(partitions));
    for (int p = 0; p < partitions; p++) {
      for (int i = sorter.partitionStart(p); i < sorter.partitionStart(p + 1); i++) {
        int r = order[i];
        assertFalse(seen[r], "record " + r + " appears twice");
        seen[r] = true;
        assertEquals(p, chunk.meta[r * MapOutputBuffer.META_INTS], "record " + r + " in the range of partition " + p);
        boolean repeats = i > sorter.partitionStart(p) && chunk.sameKeyBytes(order[i - 1], r);
        assertEquals(sorter.grouped() && repeats, sorter.keyRepeats(i),
            "position " + i + ": whether its key repeats the one before");
        if (i > sorter.partitionStart(p)) {
          int previous = order[i - 1];
          int c = chunk.compareKeys(comparator, previous, r);
          assertTrue(c <= 0, "position " + i + " of partition " + p + " is out of order");
          if (sorter.grouped() && chunk.sameKeyBytes(previous, r)) {
            assertTrue(previous < r, "records of one key keep the order they were collected in");
          }
        }
      }
    }
    return sorter.grouped();
  }

  @Test
  void repeatedTextKeysAreGroupedAndSorted() throws IOException {
    String[] words = new String[300];
    Random random = new Random(1);
    for (int i = 0; i < words.length; i++) {
      // shared prefixes longer than 8 bytes, prefixes of each other, empty, NUL and multi-byte UTF-8
      words[i] = switch (i % 5) {
        case 0 -> "prefix-shared-" + i;
        case 1 -> "w" + "x".repeat(i % 13);
        case 2 -> "\u00e9t\u00e9" + i;
        case 3 -> i % 2 == 0 ? "" : "\0" + i;
        default -> Long.toString(random.nextLong(), 36);
      };
    }
    Chunk chunk = chunk(20_000, 4, 2, n -> new Text(words[n % words.length]));
    assertTrue(sortAndCheck(chunk, 4, WritableComparator.get(Text.class)), "300 keys in 20,000 records are grouped");
  }

  /** More groups than the first hash table holds: it grows, and every key keeps its group. */
  @Test
  void manyGroupsGrowTheTable() throws IOException {
    Chunk chunk = chunk(40_000, 3, 3, n -> new LongWritable(n % 2_400 - 1_200));
    assertTrue(sortAndCheck(chunk, 3, WritableComparator.get(LongWritable.class)));
  }

  @Test
  void mostlyDistinctKeysAreSortedRecordByRecord() throws IOException {
    Chunk chunk = chunk(20_000, 2, 4, n -> new Text("key-" + n));
    assertFalse(sortAndCheck(chunk, 2, WritableComparator.get(Text.class)), "distinct keys are not grouped");
  }

  /** Keys with different bytes that the comparator calls equal end up next to each other. */
  @Test
  void keysEqualUnderTheComparatorButNotInBytes() throws IOException {
    RawComparator<Text> caseBlind = new WritableComparator(Text.class, true) {
      @Override
      @SuppressWarnings("rawtypes")
      public int compare(org.apache.hadoop.io.WritableComparable a, org.apache.hadoop.io.WritableComparable b) {
        return a.toString().compareToIgnoreCase(b.toString());
      }
    };
    String[] words = {"Apple", "apple", "APPLE", "pear", "Pear", "fig"};
    Chunk chunk = chunk(5_000, 2, 5, n -> new Text(words[n % words.length]));
    assertTrue(sortAndCheck(chunk, 2, caseBlind));
  }

  /** The key comparison behind hash matches, for every length and every position of a difference. */
  @Test
  void equalBytesFindsADifferenceAnywhere() {
    for (int length = 0; length <= 20; length++) {
      byte[] data = new byte[3 + 2 * length];
      for (int i = 0; i < length; i++) {
        data[3 + i] = (byte) (i * 37);
        data[3 + length + i] = (byte) (i * 37);
      }
      assertTrue(GroupingSorter.equalBytes(data, 3, 3 + length, length), "length " + length);
      for (int i = 0; i < length; i++) {
        data[3 + length + i] ^= (byte) 0x80;
        assertFalse(GroupingSorter.equalBytes(data, 3, 3 + length, length), "length " + length + ", byte " + i);
        data[3 + length + i] ^= (byte) 0x80;
      }
    }
  }

  /** A key's first 8 bytes, by one load or, at the array's end, byte by byte; never what follows. */
  @Test
  void headIsTheKeysFirstBytesWhateverFollowsThem() {
    Random random = new Random(9);
    for (int length = 0; length <= 12; length++) {
      for (int after = 0; after <= 9; after++) {
        byte[] data = new byte[2 + length + after];
        random.nextBytes(data);
        long expected = 0;
        for (int i = Math.min(length, 8) - 1; i >= 0; i--) {
          expected = (expected << 8) | (data[2 + i] & 0xFF);
        }
        assertEquals(expected, GroupingSorter.head(data, 2, length), "length " + length + ", " + after + " after");
        for (int i = 2 + length; i < data.length; i++) {
          data[i] ^= 0x5A;
        }
        assertEquals(expected, GroupingSorter.head(data, 2, length), "length " + length + ", " + after + " after");
      }
    }
  }

  /** Short keys up to the array's last byte: the keys there are read without an 8-byte load. */
  @Test
  void shortKeysAtTheEndOfTheArrayAreGrouped() throws IOException {
    String[] words = {"", "a", "ab", "abc", "abcdefg", "abcdefgh", "abcdefghi", "b", "ba"};
    Chunk chunk = chunk(3_000, 2, 6, n -> new Text(words[n % words.length]));
    byte[] exact = java.util.Arrays.copyOf(chunk.data.getData(), chunk.data.getLength());
    assertTrue(sortAndCheck(chunk, 2, WritableComparator.get(Text.class), exact));
  }

  /**
   * Records grouped as they are added, chunk after chunk on one sorter, give the same order as
   * grouping at sort time; a chunk whose records were not all added is grouped again by sort, and
   * so is an empty one (no groups left from the chunk before).
   */
  @Test
  void recordsGroupedAsTheyAreAdded() throws IOException {
    RawComparator<?> comparator = WritableComparator.get(Text.class);
    GroupingSorter sorter = new GroupingSorter(comparator, new IndexSorter(comparator, new SortBuffers()));
    for (int round = 0; round < 3; round++) {
      int seed = 10 + round;
      Chunk chunk = chunk(6_000, 3, seed, n -> new Text("w" + n % (40 + seed)));
      for (int r = 0; r < chunk.records; r++) {
        sorter.add(chunk.data.getData(), chunk.meta, r);
      }
      assertTrue(sortAndCheck(sorter, chunk, 3, comparator, chunk.data.getData()));
    }
    Chunk partly = chunk(5_000, 2, 20, n -> new Text("p" + n % 30));
    for (int r = 0; r < 2_000; r++) {
      sorter.add(partly.data.getData(), partly.meta, r);
    }
    assertTrue(sortAndCheck(sorter, partly, 2, comparator, partly.data.getData()));
    assertTrue(sortAndCheck(sorter, new Chunk(), 2, comparator, new byte[0]));
    Chunk distinct = chunk(9_000, 2, 21, n -> new Text("d" + n));
    for (int r = 0; r < distinct.records; r++) {
      sorter.add(distinct.data.getData(), distinct.meta, r);
    }
    assertFalse(sortAndCheck(sorter, distinct, 2, comparator, distinct.data.getData()));
  }

  @Test
  void emptyChunkAndEmptyPartitions() throws IOException {
    assertTrue(sortAndCheck(new Chunk(), 5, WritableComparator.get(Text.class)));
    Chunk onePartition = new Chunk();
    for (int i = 0; i < 100; i++) {
      onePartition.add(new Text("k" + i % 7), 3);
    }
    assertTrue(sortAndCheck(onePartition, 6, WritableComparator.get(Text.class)));
  }
}
