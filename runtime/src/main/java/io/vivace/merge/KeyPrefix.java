package io.vivace.merge;

import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableUtils;

/**
 * An order-preserving 64-bit prefix of serialised keys, for comparators whose order is known:
 * if {@code prefix(a) < prefix(b)} (unsigned) then the comparator puts a before b; equal prefixes
 * decide nothing. Lets the sort order most records by radix passes over longs instead of calls
 * to the comparator, and the merge compare most keys as longs.
 */
public abstract class KeyPrefix {

  /** The prefix of the serialised key {@code data[keyStart, keyStart + keyLength)}. */
  public abstract long of(byte[] data, int keyStart, int keyLength);

  /** The prefix for the job's sort comparator, or null when its order is not known. */
  public static KeyPrefix forComparator(RawComparator<?> comparator) {
    Class<?> type = comparator.getClass();
    if (type == Text.Comparator.class) {
      return new Lexicographic() {
        @Override
        int contentStart(byte[] data, int keyStart) {
          return keyStart + WritableUtils.decodeVIntSize(data[keyStart]);
        }
      };
    }
    if (type == BytesWritable.Comparator.class) {
      return new Lexicographic() {
        @Override
        int contentStart(byte[] data, int keyStart) {
          return keyStart + Integer.BYTES;
        }
      };
    }
    if (type == LongWritable.Comparator.class) {
      return new KeyPrefix() {
        @Override
        public long of(byte[] data, int keyStart, int keyLength) {
          return bigEndian(data, keyStart, Long.BYTES) ^ Long.MIN_VALUE;
        }
      };
    }
    if (type == IntWritable.Comparator.class) {
      return new KeyPrefix() {
        @Override
        public long of(byte[] data, int keyStart, int keyLength) {
          // left-aligned already: flipping the top bit orders negative numbers first
          return bigEndian(data, keyStart, Integer.BYTES) ^ Long.MIN_VALUE;
        }
      };
    }
    return null;
  }

  /** Up to 8 bytes read as an unsigned big-endian number, left-aligned; missing bytes are 0. */
  static long bigEndian(byte[] data, int start, int length) {
    long v = 0;
    int n = Math.min(length, Long.BYTES);
    for (int i = 0; i < n; i++) {
      v = (v << 8) | (data[start + i] & 0xFFL);
    }
    return v << (8 * (Long.BYTES - n));
  }

  /**
   * Comparators that compare the key's content bytes as unsigned bytes, shorter first on a tie:
   * the first 8 content bytes, zero-padded, never contradict them.
   */
  private abstract static class Lexicographic extends KeyPrefix {
    abstract int contentStart(byte[] data, int keyStart);

    @Override
    public long of(byte[] data, int keyStart, int keyLength) {
      int start = contentStart(data, keyStart);
      return bigEndian(data, start, keyStart + keyLength - start);
    }
  }
}
