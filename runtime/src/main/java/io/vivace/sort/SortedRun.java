package io.vivace.sort;

import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.Progress;

/** The records of one partition of a sorted {@link MapOutputBuffer}, read in place. */
final class SortedRun implements RawKeyValueIterator {

  private final byte[] data;
  private final int[] meta;
  private final int[] order;
  private final int end;
  private int next;
  private final DataInputBuffer key = new DataInputBuffer();
  private final DataInputBuffer value = new DataInputBuffer();
  private final Progress progress = new Progress();

  /** The records {@code order[from..to)}. */
  SortedRun(byte[] data, int[] meta, int[] order, int from, int to) {
    this.data = data;
    this.meta = meta;
    this.order = order;
    this.next = from;
    this.end = to;
  }

  @Override
  public boolean next() {
    if (next >= end) {
      return false;
    }
    int m = order[next] * MapOutputBuffer.META_INTS;
    int keyStart = meta[m + MapOutputBuffer.KEY_START];
    int valueStart = meta[m + MapOutputBuffer.VALUE_START];
    key.reset(data, keyStart, valueStart - keyStart);
    value.reset(data, valueStart, meta[m + MapOutputBuffer.VALUE_END] - valueStart);
    next++;
    return true;
  }

  @Override
  public DataInputBuffer getKey() {
    return key;
  }

  @Override
  public DataInputBuffer getValue() {
    return value;
  }

  @Override
  public Progress getProgress() {
    return progress;
  }

  @Override
  public void close() {
  }
}
