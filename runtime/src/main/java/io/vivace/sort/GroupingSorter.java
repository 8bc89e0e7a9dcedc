package io.vivace.sort;

import static io.vivace.sort.MapOutputBuffer.KEY_START;
import static io.vivace.sort.MapOutputBuffer.META_INTS;
import static io.vivace.sort.MapOutputBuffer.PARTITION;
import static io.vivace.sort.MapOutputBuffer.VALUE_START;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.hadoop.io.RawComparator;

/**
 * Orders a {@link MapOutputBuffer}'s records for its combiner, by partition and key as {@link
 * IndexSorter} does, but sorts each distinct serialised key once: records are grouped by partition
 * and key bytes in a hash table, one record of each group is sorted, and each group's records follow
 * it in the order they were collected. Byte-identical keys compare equal under any comparator, so
 * this is a sorted order. Output that a combiner shrinks repeats its keys (a word count's 1 MB
 * chunk of about 19,000 records holds about 1,000 distinct words), and hashing a key costs far less
 * than sorting it. When the keys turn out mostly distinct, grouping stops and the records are
 * sorted one by one.
 */
final class GroupingSorter implements SortedIndex {

  /** Every this many records, grouping gives up if more than half of them started a group. */
  private static final int CHECK_EVERY = 4096;
  private static final long MIX = 0x9E3779B97F4A7C15L;
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final IndexSorter recordSorter;
  private final IndexSorter groupSorter;
  private boolean grouped;

  /** Open addressing: group number + 1 per slot, 0 for an empty slot. */
  private int[] table = new int[1 << 12];
  private int groups;
  /**
   * Per group: the key's hash and first 8 bytes ({@link #head}), its first and last record, and the
   * first record's meta ints.
   */
  private int[] groupHash = new int[1 << 10];
  private long[] groupHead = new long[1 << 10];
  private int[] groupFirst = new int[1 << 10];
  private int[] groupLast = new int[1 << 10];
  private int[] groupMeta = new int[(1 << 10) * META_INTS];
  /** Per record: the next record of its group, -1 after the last. */
  private int[] next = new int[0];
  private int[] order = new int[0];
  /** Bit i: the record at order[i] has the key of the record before it. */
  private long[] repeats = new long[0];
  private int[] partitionStart = new int[0];
  /** Records 0 to added - 1 were grouped by {@link #add} as they were collected. */
  private int added;
  private boolean addedGaveUp;

  /** @param recordSorter sorts the records when grouping does not pay */
  GroupingSorter(RawComparator<?> comparator, IndexSorter recordSorter) {
    this.recordSorter = recordSorter;
    this.groupSorter = new IndexSorter(comparator, new SortBuffers());
  }

  @Override
  public int[] order() {
    return grouped ? order : recordSorter.order();
  }

  @Override
  public int partitionStart(int p) {
    return grouped ? partitionStart[p] : recordSorter.partitionStart(p);
  }

  @Override
  public boolean keyRepeats(int position) {
    return grouped && (repeats[position >>> 6] & (1L << position)) != 0;
  }

  void sort(byte[] data, int[] meta, int records, int partitions) {
    grouped = records > 0 && added == records ? !addedGaveUp : group(data, meta, records);
    added = 0;
    addedGaveUp = false;
    if (grouped) {
      groupSorter.sort(data, groupMeta, groups, partitions);
      orderByGroup(records, partitions);
    } else {
      recordSorter.sort(data, meta, records, partitions);
    }
  }

  /**
   * Groups record {@code r} as it is collected, while its key is still in the CPU's cache; when
   * records 0 to n - 1 were added in order, {@link #sort} of those n records does not group again.
   * Record 0 starts a new chunk.
   */
  void add(byte[] data, int[] meta, int r) {
    if (r == 0) {
      startGrouping(1);
      added = 0;
      addedGaveUp = false;
    }
    if (r != added || addedGaveUp) {
      return;
    }
    if (r == next.length) {
      next = Arrays.copyOf(next, Math.max(1024, r * 2));
    }
    addedGaveUp = !addRecord(data, meta, r);
    added = r + 1;
  }

  /** Puts every record in the group of its partition and key; false if most keys are distinct. */
  private boolean group(byte[] data, int[] meta, int records) {
    startGrouping(records);
    for (int r = 0; r < records; r++) {
      if (!addRecord(data, meta, r)) {
        return false;
      }
    }
    return true;
  }

  private void startGrouping(int records) {
    Arrays.fill(table, 0);
    groups = 0;
    if (next.length < records) {
      next = new int[Math.max(records, next.length * 2)];
    }
  }

  /** Puts record {@code r} in its group; false when most keys so far are distinct. */
  private boolean addRecord(byte[] data, int[] meta, int r) {
    int m = r * META_INTS;
    int partition = meta[m + PARTITION];
    int keyStart = meta[m + KEY_START];
    int keyEnd = meta[m + VALUE_START];
    long head = head(data, keyStart, keyEnd - keyStart);
    int hash = hash(data, keyStart, keyEnd, partition, head);
    int mask = table.length - 1;
    int slot = hash & mask;
    next[r] = -1;
    while (true) {
      int entry = table[slot];
      if (entry == 0) {
        table[slot] = newGroup(r, hash, head, meta, m) + 1;
        break;
      }
      int g = entry - 1;
      if (groupHash[g] == hash && sameKey(g, data, partition, keyStart, keyEnd, head)) {
        next[groupLast[g]] = r;
        groupLast[g] = r;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (groups * 2 > table.length) {
      growTable();
    }
    return (r + 1) % CHECK_EVERY != 0 || groups <= (r + 1) / 2;
  }

  /**
   * Whether record key {@code keyStart..keyEnd} with first bytes {@code head} is group {@code g}'s:
   * a key of up to 8 bytes is its head, so the group's key bytes are read only for longer keys.
   */
  private boolean sameKey(int g, byte[] data, int partition, int keyStart, int keyEnd, long head) {
    int m = g * META_INTS;
    int start = groupMeta[m + KEY_START];
    int length = keyEnd - keyStart;
    return groupHead[g] == head && groupMeta[m + PARTITION] == partition
        && groupMeta[m + VALUE_START] - start == length
        && (length <= Long.BYTES
            || equalBytes(data, start + Long.BYTES, keyStart + Long.BYTES, length - Long.BYTES));
  }

  /**
   * The first 8 bytes of the key at {@code start} (fewer for a shorter key, the rest zero), little
   * endian: one load where the array has 8 bytes there, whatever follows the key masked off.
   */
  static long head(byte[] data, int start, int length) {
    if (start + Long.BYTES <= data.length) {
      long bytes = (long) LONGS.get(data, start);
      return length >= Long.BYTES ? bytes : bytes & ((1L << (length << 3)) - 1);
    }
    long head = 0;
    for (int i = Math.min(length, Long.BYTES) - 1; i >= 0; i--) {
      head = (head << 8) | (data[start + i] & 0xFF);
    }
    return head;
  }

  /** Arrays.equals for the short keys this sees: no call into the vectorised mismatch. */
  static boolean equalBytes(byte[] data, int a, int b, int length) {
    int i = 0;
    for (; i + Long.BYTES <= length; i += Long.BYTES) {
      if ((long) LONGS.get(data, a + i) != (long) LONGS.get(data, b + i)) {
        return false;
      }
    }
    for (; i < length; i++) {
      if (data[a + i] != data[b + i]) {
        return false;
      }
    }
    return true;
  }

  /** Whether the last sort grouped the records (false: they were sorted one by one). */
  boolean grouped() {
    return grouped;
  }

  private int newGroup(int record, int hash, long head, int[] meta, int m) {
    int g = groups++;
    if (g == groupHash.length) {
      int n = g * 2;
      groupHash = Arrays.copyOf(groupHash, n);
      groupHead = Arrays.copyOf(groupHead, n);
      groupFirst = Arrays.copyOf(groupFirst, n);
      groupLast = Arrays.copyOf(groupLast, n);
      groupMeta = Arrays.copyOf(groupMeta, n * META_INTS);
    }
    groupHash[g] = hash;
    groupHead[g] = head;
    groupFirst[g] = record;
    groupLast[g] = record;
    System.arraycopy(meta, m, groupMeta, g * META_INTS, META_INTS);
    return g;
  }

  private void growTable() {
    table = new int[table.length * 2];
    int mask = table.length - 1;
    for (int g = 0; g < groups; g++) {
      int slot = groupHash[g] & mask;
      while (table[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      table[slot] = g + 1;
    }
  }

  /** The records of the sorted groups, each group's in collection order. */
  private void orderByGroup(int records, int partitions) {
    if (order.length < records) {
      order = new int[Math.max(records, order.length * 2)];
      repeats = new long[(order.length + 63) >>> 6];
    }
    Arrays.fill(repeats, 0, (records + 63) >>> 6, 0L);
    if (partitionStart.length < partitions + 1) {
      partitionStart = new int[partitions + 1];
    }
    int[] groupOrder = groupSorter.order();
    int k = 0;
    int p = 0;
    for (int i = 0; i < groups; i++) {
      while (groupSorter.partitionStart(p) <= i) {
        partitionStart[p++] = k;
      }
      int first = groupFirst[groupOrder[i]];
      order[k++] = first;
      for (int r = next[first]; r >= 0; r = next[r]) {
        repeats[k >>> 6] |= 1L << k;
        order[k++] = r;
      }
    }
    while (p <= partitions) {
      partitionStart[p++] = k;
    }
  }

  /** A hash of the partition and the key bytes, eight at a time; {@code head} is the first eight. */
  private static int hash(byte[] data, int from, int to, int partition, long head) {
    long h = (partition + 1) * MIX + (to - from);
    h = (head ^ h) * MIX;
    h ^= h >>> 29;
    int i = from + Long.BYTES;
    for (; i + Long.BYTES <= to; i += Long.BYTES) {
      h = ((long) LONGS.get(data, i) ^ h) * MIX;
      h ^= h >>> 29;
    }
    long tail = 0;
    for (; i < to; i++) {
      tail = (tail << 8) | (data[i] & 0xFF);
    }
    h = (tail ^ h) * MIX;
    return (int) (h ^ (h >>> 32));
  }
}
