package io.vivace.sort;

import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.Progress;

/** The records of one partition of a sorted {@link MapOutputBuffer}, read in place. */
final class SortedRun implements BufferedRun {

  private final byte[] data;
  private final int[] meta;
  private final SortedIndex index;
  private final int[] order;
  private final int from;
  private final int end;
  private int next;
  private boolean keyRepeats;
  private final DataInputBuffer key = new DataInputBuffer();
  private final DataInputBuffer value = new DataInputBuffer();
  private final Progress progress = new Progress();

  /** The records at positions {@code from..to} of the index's order. */
  SortedRun(byte[] data, int[] meta, SortedIndex index, int from, int to) {
    this.data = data;
    this.meta = meta;
    this.index = index;
    this.order = index.order();
    this.from = from;
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
    keyRepeats = index.keyRepeats(next);
    next++;
    return true;
  }

  @Override
  public boolean currentKeyRepeats(byte[] bytes, int offset) {
    return keyRepeats && bytes == data && offset == key.getPosition();
  }

  @Override
  public int from() {
    return from;
  }

  @Override
  public int to() {
    return end;
  }

  @Override
  public byte[] data() {
    return data;
  }

  @Override
  public int keyStart(int position) {
    return meta[order[position] * MapOutputBuffer.META_INTS + MapOutputBuffer.KEY_START];
  }

  @Override
  public int keyEnd(int position) {
    return meta[order[position] * MapOutputBuffer.META_INTS + MapOutputBuffer.VALUE_START];
  }

  @Override
  public int valueEnd(int position) {
    return meta[order[position] * MapOutputBuffer.META_INTS + MapOutputBuffer.VALUE_END];
  }

  @Override
  public boolean keyRepeats(int position) {
    return index.keyRepeats(position);
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
