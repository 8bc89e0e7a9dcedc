package io.vivace.segment;

import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableUtils;

/** Hadoop's vint encoding (as {@link WritableUtils#writeVInt}) read from and written to byte arrays. */
public final class VarInts {

  private VarInts() {
  }

  /** Writes {@code value} at {@code offset}; returns the offset after it. */
  public static int write(int value, byte[] buf, int offset) {
    long v = value;
    if (v >= -112 && v <= 127) {
      buf[offset] = (byte) v;
      return offset + 1;
    }
    int len = -112;
    if (v < 0) {
      v ^= -1L;
      len = -120;
    }
    long tmp = v;
    while (tmp != 0) {
      tmp = tmp >> 8;
      len--;
    }
    buf[offset++] = (byte) len;
    int bytes = (len < -120) ? -(len + 120) : -(len + 112);
    for (int idx = bytes; idx != 0; idx--) {
      int shift = (idx - 1) * 8;
      buf[offset++] = (byte) ((v >> shift) & 0xFF);
    }
    return offset;
  }

  public static int size(byte[] buf, int offset) {
    return WritableUtils.decodeVIntSize(buf[offset]);
  }

  public static int read(byte[] buf, int offset) {
    try {
      return WritableComparator.readVInt(buf, offset);
    } catch (java.io.IOException e) {
      throw new IllegalStateException("corrupt record length at offset " + offset, e);
    }
  }
}
