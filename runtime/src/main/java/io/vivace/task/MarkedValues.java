package io.vivace.task;

import java.util.Arrays;

/**
 * The serialised values a reduce's value iterator keeps while marked, for a reset to serve again:
 * Hadoop's {@code BackupStore} over a streaming input, in one growable array on the heap. Values
 * are appended back to back; a reset replays them from the mark's index on.
 */
final class MarkedValues {

  private byte[] data = new byte[4096];
  /** Value i lies at {@code ends[i - 1]} (0 for the first) to {@code ends[i]}. */
  private int[] ends = new int[64];
  private int count;

  void clear() {
    count = 0;
  }

  int count() {
    return count;
  }

  void add(byte[] bytes, int start, int length) {
    int from = count == 0 ? 0 : ends[count - 1];
    if (from + length > data.length) {
      data = Arrays.copyOf(data, Math.max(2 * data.length, from + length));
    }
    if (count == ends.length) {
      ends = Arrays.copyOf(ends, 2 * count);
    }
    System.arraycopy(bytes, start, data, from, length);
    ends[count++] = from + length;
  }

  byte[] data() {
    return data;
  }

  int start(int index) {
    return index == 0 ? 0 : ends[index - 1];
  }

  int end(int index) {
    return ends[index];
  }
}
