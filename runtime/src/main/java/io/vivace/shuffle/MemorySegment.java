package io.vivace.shuffle;

import java.util.function.LongConsumer;
import org.apache.hadoop.io.DataInputBuffer;

/** A segment held in a heap byte array; reading it copies nothing. */
public final class MemorySegment implements Segment {

  private byte[] data;
  private final int offset;
  private final int length;
  private final LongConsumer onRelease;

  /** {@code onRelease} receives the bytes given back (to a memory budget), or is null. */
  public MemorySegment(byte[] data, int offset, int length, LongConsumer onRelease) {
    this.data = data;
    this.offset = offset;
    this.length = length;
    this.onRelease = onRelease;
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public boolean inMemory() {
    return true;
  }

  @Override
  public SegmentReader open() {
    if (data == null) {
      throw new IllegalStateException("segment already released");
    }
    return new Reader(data, offset, offset + length);
  }

  @Override
  public synchronized void release() {
    if (data != null) {
      data = null;
      if (onRelease != null) {
        onRelease.accept(length);
      }
    }
  }

  private static final class Reader implements SegmentReader {
    private final byte[] data;
    private final int end;
    private int pos;
    private final DataInputBuffer key = new DataInputBuffer();
    private final DataInputBuffer value = new DataInputBuffer();

    Reader(byte[] data, int start, int end) {
      this.data = data;
      this.pos = start;
      this.end = end;
    }

    @Override
    public boolean next() {
      if (pos >= end) {
        return false;
      }
      int keyLength = VarInts.read(data, pos);
      pos += VarInts.size(data, pos);
      int valueLength = VarInts.read(data, pos);
      pos += VarInts.size(data, pos);
      key.reset(data, pos, keyLength);
      pos += keyLength;
      value.reset(data, pos, valueLength);
      pos += valueLength;
      return true;
    }

    @Override
    public DataInputBuffer key() {
      return key;
    }

    @Override
    public DataInputBuffer value() {
      return value;
    }

    @Override
    public void close() {
    }
  }
}
