package io.vivace.sort;

/** A sorted order of a {@link MapOutputBuffer}'s records: record numbers, partition by partition. */
interface SortedIndex {

  /** The sorted record numbers; valid until the next sort. */
  int[] order();

  /** Where partition {@code p} begins in {@link #order()}; {@code partitionStart(partitions)} is the end. */
  int partitionStart(int p);

  /**
   * Whether the record at {@code position} of {@link #order()} has the same key bytes as the one
   * before it; false when they differ or when it is not known.
   */
  default boolean keyRepeats(int position) {
    return false;
  }
}
