package io.vivace.sort;

import io.vivace.merge.KeyPrefix;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.util.IndexedSortable;
import org.apache.hadoop.util.QuickSort;

/**
 * Orders the records of a {@link MapOutputBuffer} by partition, then by key, without moving them:
 * a counting sort by partition, then per partition an MSD radix sort of the records' 64-bit
 * {@link KeyPrefix} (when the comparator's order is known), and the job's comparator only among
 * records whose prefixes are equal. Without a known prefix the comparator sorts each partition.
 * The result is a permutation of record numbers and each partition's range in it.
 */
final class IndexSorter implements SortedIndex {

  /** Memory the sort needs per record: two int permutations and two long prefix arrays. */
  static final int BYTES_PER_RECORD = 2 * Integer.BYTES + 2 * Long.BYTES;

  private static final int SMALL_RUN = 16;
  /** Ranges the radix sort leaves to an insertion sort. */
  private static final int INSERTION_RUN = 32;

  private final RawComparator<Object> comparator;
  private final KeyPrefix prefix;
  private final QuickSort quickSort = new QuickSort();

  private final SortBuffers buffers;
  private int[] order;
  private int[] scratchOrder;
  private long[] keys;
  private long[] scratchKeys;
  private int[] partitionStart = new int[0];
  /** The radix sort's bucket counts, one array per byte of the prefix (one per recursion level). */
  private final int[][] bucketCounts = new int[Long.BYTES][256];

  /** Sorts with the worker thread's reusable arrays. */
  @SuppressWarnings("unchecked")
  IndexSorter(RawComparator<?> comparator, SortBuffers buffers) {
    this.comparator = (RawComparator<Object>) comparator;
    this.prefix = KeyPrefix.forComparator(comparator);
    this.buffers = buffers;
    this.order = buffers.order;
    this.scratchOrder = buffers.scratchOrder;
    this.keys = buffers.keys;
    this.scratchKeys = buffers.scratchKeys;
  }

  /** The sorted record numbers; valid until the next sort. */
  public int[] order() {
    return order;
  }

  /** Where partition {@code p} begins in {@link #order()}; {@code partitionStart(partitions)} is the end. */
  public int partitionStart(int p) {
    return partitionStart[p];
  }

  void sort(byte[] data, int[] meta, int records, int partitions) {
    ensureCapacity(records, partitions);
    countingSortByPartition(meta, records, partitions);
    for (int p = 0; p < partitions; p++) {
      int from = partitionStart[p];
      int to = partitionStart[p + 1];
      if (to - from < 2) {
        continue;
      }
      if (prefix == null) {
        comparisonSort(data, meta, from, to);
      } else {
        radixSort(data, meta, from, to);
        sortEqualPrefixes(data, meta, from, to);
      }
    }
  }

  private void ensureCapacity(int records, int partitions) {
    if (order.length < records) {
      int n = Math.max(records, order.length * 2);
      order = buffers.order = new int[n];
      scratchOrder = buffers.scratchOrder = new int[n];
    }
    if (prefix != null && keys.length < records) {
      int n = Math.max(records, keys.length * 2);
      keys = buffers.keys = new long[n];
      scratchKeys = buffers.scratchKeys = new long[n];
    }
    if (partitionStart.length < partitions + 1) {
      partitionStart = new int[partitions + 1];
    }
  }

  private void countingSortByPartition(int[] meta, int records, int partitions) {
    int[] start = partitionStart;
    java.util.Arrays.fill(start, 0, partitions + 1, 0);
    for (int r = 0; r < records; r++) {
      start[meta[r * MapOutputBuffer.META_INTS + MapOutputBuffer.PARTITION] + 1]++;
    }
    for (int p = 0; p < partitions; p++) {
      start[p + 1] += start[p];
    }
    int[] next = partitions <= scratchOrder.length ? scratchOrder : new int[partitions];
    System.arraycopy(start, 0, next, 0, partitions);
    for (int r = 0; r < records; r++) {
      order[next[meta[r * MapOutputBuffer.META_INTS + MapOutputBuffer.PARTITION]]++] = r;
    }
  }

  /** Sorts order[from, to) by prefix: {@link #msdRadixSort} from the prefix's top byte. */
  private void radixSort(byte[] data, int[] meta, int from, int to) {
    for (int i = from; i < to; i++) {
      int m = order[i] * MapOutputBuffer.META_INTS;
      int keyStart = meta[m + MapOutputBuffer.KEY_START];
      keys[i] = prefix.of(data, keyStart, meta[m + MapOutputBuffer.VALUE_START] - keyStart);
    }
    msdRadixSort(from, to, Long.SIZE - Byte.SIZE);
  }

  /**
   * Stable MSD radix sort of order[from, to) by the prefix bits at and below {@code shift + 7}: one
   * counting pass on the byte at {@code shift}, then each bucket on the next byte, and small ranges
   * by insertion. Random keys are told apart after two or three bytes, where an LSD sort would read
   * all eight; a byte that is the same in the whole range costs one counting pass.
   */
  private void msdRadixSort(int from, int to, int shift) {
    if (to - from <= INSERTION_RUN) {
      insertionSortByPrefix(from, to);
      return;
    }
    int[] counts = bucketCounts[shift / Byte.SIZE];
    java.util.Arrays.fill(counts, 0);
    for (int i = from; i < to; i++) {
      counts[(int) (keys[i] >>> shift) & 0xFF]++;
    }
    if (counts[(int) (keys[from] >>> shift) & 0xFF] == to - from) {
      if (shift > 0) {
        msdRadixSort(from, to, shift - Byte.SIZE);
      }
      return;
    }
    int sum = from;
    for (int b = 0; b < 256; b++) {
      int c = counts[b];
      counts[b] = sum;
      sum += c;
    }
    for (int i = from; i < to; i++) {
      int slot = counts[(int) (keys[i] >>> shift) & 0xFF]++;
      scratchKeys[slot] = keys[i];
      scratchOrder[slot] = order[i];
    }
    System.arraycopy(scratchKeys, from, keys, from, to - from);
    System.arraycopy(scratchOrder, from, order, from, to - from);
    if (shift == 0) {
      return;
    }
    // counts[b] is now the end of bucket b
    int start = from;
    for (int b = 0; b < 256 && start < to; b++) {
      int end = counts[b];
      if (end - start > 1) {
        msdRadixSort(start, end, shift - Byte.SIZE);
      }
      start = end;
    }
  }

  /** Stable insertion sort of order[from, to) by unsigned prefix. */
  private void insertionSortByPrefix(int from, int to) {
    for (int i = from + 1; i < to; i++) {
      long key = keys[i];
      int r = order[i];
      int j = i - 1;
      while (j >= from && Long.compareUnsigned(keys[j], key) > 0) {
        keys[j + 1] = keys[j];
        order[j + 1] = order[j];
        j--;
      }
      keys[j + 1] = key;
      order[j + 1] = r;
    }
  }

  /** Records with equal prefixes are ordered by the comparator. */
  private void sortEqualPrefixes(byte[] data, int[] meta, int from, int to) {
    int runStart = from;
    for (int i = from + 1; i <= to; i++) {
      if (i == to || keys[i] != keys[runStart]) {
        if (i - runStart > 1) {
          comparisonSort(data, meta, runStart, i);
        }
        runStart = i;
      }
    }
  }

  private int compare(byte[] data, int[] meta, int a, int b) {
    int ma = a * MapOutputBuffer.META_INTS;
    int mb = b * MapOutputBuffer.META_INTS;
    int ka = meta[ma + MapOutputBuffer.KEY_START];
    int kb = meta[mb + MapOutputBuffer.KEY_START];
    return comparator.compare(data, ka, meta[ma + MapOutputBuffer.VALUE_START] - ka,
        data, kb, meta[mb + MapOutputBuffer.VALUE_START] - kb);
  }

  private void comparisonSort(byte[] data, int[] meta, int from, int to) {
    if (to - from <= SMALL_RUN) {
      for (int i = from + 1; i < to; i++) {
        int r = order[i];
        int j = i - 1;
        while (j >= from && compare(data, meta, order[j], r) > 0) {
          order[j + 1] = order[j];
          j--;
        }
        order[j + 1] = r;
      }
      return;
    }
    quickSort.sort(new IndexedSortable() {
      @Override
      public int compare(int i, int j) {
        return IndexSorter.this.compare(data, meta, order[i], order[j]);
      }

      @Override
      public void swap(int i, int j) {
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
    }, from, to);
  }
}
