package io.vivace.segment;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.io.DataInputBuffer;

/**
 * Appends serialised records in Vivace's segment format: for each record a vint key length, a vint
 * value length, the key bytes and the value bytes. A segment's end is known from its length, so no
 * end marker is written.
 */
public final class SegmentWriter implements Closeable {

  /**
   * Key and value length that end a compressed segment's records (Hadoop's IFile ends every
   * segment so); raw segments end where their length says.
   */
  public static final int END_MARKER = -1;

  private final OutputStream out;
  private final byte[] header = new byte[10];
  private long position;
  private long records;

  public SegmentWriter(OutputStream out) {
    this.out = out;
  }

  public void append(byte[] key, int keyOffset, int keyLength,
                     byte[] value, int valueOffset, int valueLength) throws IOException {
    int n = VarInts.write(keyLength, header, 0);
    n = VarInts.write(valueLength, header, n);
    out.write(header, 0, n);
    out.write(key, keyOffset, keyLength);
    out.write(value, valueOffset, valueLength);
    position += n + keyLength + valueLength;
    records++;
  }

  /**
   * Appends {@code records} records already in this format (headers included), as {@code
   * bytes[offset, offset + length)}.
   */
  public void appendFormatted(byte[] bytes, int offset, int length, int records) throws IOException {
    out.write(bytes, offset, length);
    position += length;
    this.records += records;
  }

  /** Appends the record whose key and value are the unread parts of the given buffers. */
  public void append(DataInputBuffer key, DataInputBuffer value) throws IOException {
    append(key.getData(), key.getPosition(), key.getLength() - key.getPosition(),
        value.getData(), value.getPosition(), value.getLength() - value.getPosition());
  }

  /** Writes the end marker; it counts in {@link #position()}, not as a record. */
  void endMarker() throws IOException {
    int n = VarInts.write(END_MARKER, header, 0);
    n = VarInts.write(END_MARKER, header, n);
    out.write(header, 0, n);
    position += n;
  }

  /** Bytes written so far. */
  public long position() {
    return position;
  }

  public long records() {
    return records;
  }

  public void flush() throws IOException {
    out.flush();
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
