package io.vivace.segment;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.function.LongConsumer;
import org.apache.hadoop.io.DataInputBuffer;

/**
 * A segment held in a heap byte array. Reading a raw one copies nothing; a compressed one is
 * decompressed as it is read.
 */
public final class MemorySegment implements Segment {

  /** Compressed segments: decompressed bytes read at a time. */
  private static final int COMPRESSED_READ_BUFFER = 64 * 1024;

  private byte[] data;
  private final int offset;
  private final int length;
  private final LongConsumer onRelease;
  private final SegmentCodec codec;

  /** A raw segment; {@code onRelease} receives the bytes given back (to a memory budget), or is null. */
  public MemorySegment(byte[] data, int offset, int length, LongConsumer onRelease) {
    this(data, offset, length, onRelease, SegmentCodec.NONE);
  }

  public MemorySegment(byte[] data, int offset, int length, LongConsumer onRelease, SegmentCodec codec) {
    this.data = data;
    this.offset = offset;
    this.length = length;
    this.onRelease = onRelease;
    this.codec = codec;
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
  public boolean streamed() {
    return codec.compresses();
  }

  @Override
  public SegmentCodec codec() {
    return codec;
  }

  @Override
  public void copyStoredBytesTo(java.io.OutputStream out) throws IOException {
    byte[] bytes = data;
    if (bytes == null) {
      throw new IllegalStateException("segment already released");
    }
    out.write(bytes, offset, length);
  }

  @Override
  public SegmentReader open() throws IOException {
    byte[] bytes = data;
    if (bytes == null) {
      throw new IllegalStateException("segment already released");
    }
    if (codec.compresses()) {
      return new StreamSegmentReader(codec.decompressing(new ByteArrayInputStream(bytes, offset, length)),
          COMPRESSED_READ_BUFFER, true);
    }
    return new Reader(bytes, offset, offset + length);
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
