package io.vivace.segment;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.io.DataInputBuffer;

/**
 * Reads records in {@link SegmentWriter}'s format from a stream that ends where the segment ends
 * (a byte range of a file, or a decompressing stream). The stream is closed, and what it holds (a
 * file handle, a pooled decompressor) given back, as soon as the last record has been read.
 * Compressed segments end with {@link SegmentWriter#END_MARKER}: codec streams may take a cut
 * input for a shorter stream, the marker tells the two apart.
 */
final class StreamSegmentReader implements SegmentReader {

  private final InputStream in;
  private final boolean endMarker;
  private final byte[] buffer;
  private int bufferPos;
  private int bufferEnd;
  private boolean eof;
  private boolean closed;
  private byte[] record = new byte[256];
  private final DataInputBuffer key = new DataInputBuffer();
  private final DataInputBuffer value = new DataInputBuffer();

  /** @param endMarker whether the records end with the end marker (compressed segments) */
  StreamSegmentReader(InputStream in, int bufferSize, boolean endMarker) {
    this.in = in;
    this.endMarker = endMarker;
    this.buffer = new byte[bufferSize];
  }

  @Override
  public boolean next() throws IOException {
    if (closed) {
      return false;
    }
    if (bufferPos >= bufferEnd && !fill()) {
      if (endMarker) {
        throw new IOException("compressed segment ends without its end marker (cut short?)");
      }
      close();
      return false;
    }
    int keyLength = readVInt();
    int valueLength = readVInt();
    if (endMarker && keyLength == SegmentWriter.END_MARKER && valueLength == SegmentWriter.END_MARKER) {
      close();
      return false;
    }
    int total = keyLength + valueLength;
    if (keyLength < 0 || valueLength < 0 || total < 0) {
      throw new IOException("corrupt segment: record lengths " + keyLength + ", " + valueLength);
    }
    if (record.length < total) {
      record = new byte[Math.max(total, record.length * 2)];
    }
    readFully(record, 0, total);
    key.reset(record, 0, keyLength);
    value.reset(record, keyLength, valueLength);
    return true;
  }

  private int readVInt() throws IOException {
    ensure(1);
    int size = VarInts.size(buffer, bufferPos);
    ensure(size);
    int v = VarInts.read(buffer, bufferPos);
    bufferPos += size;
    return v;
  }

  /** Makes at least {@code n} (at most 9) bytes available in the read buffer. */
  private void ensure(int n) throws IOException {
    if (bufferEnd - bufferPos >= n) {
      return;
    }
    int left = bufferEnd - bufferPos;
    System.arraycopy(buffer, bufferPos, buffer, 0, left);
    bufferPos = 0;
    bufferEnd = left;
    while (bufferEnd < n) {
      if (!fill()) {
        throw new EOFException("segment ends inside a record");
      }
    }
  }

  /** Reads more into the buffer after its end; false at the end of the stream. */
  private boolean fill() throws IOException {
    if (eof) {
      return false;
    }
    if (bufferPos >= bufferEnd) {
      bufferPos = 0;
      bufferEnd = 0;
    }
    int got = in.read(buffer, bufferEnd, buffer.length - bufferEnd);
    if (got < 0) {
      eof = true;
      return false;
    }
    bufferEnd += got;
    return true;
  }

  private void readFully(byte[] dst, int off, int len) throws IOException {
    while (len > 0) {
      if (bufferPos >= bufferEnd) {
        bufferPos = 0;
        bufferEnd = 0;
        if (len >= buffer.length && !eof) {
          int got = in.read(dst, off, len);
          if (got < 0) {
            eof = true;
            throw new EOFException("segment ends inside a record");
          }
          off += got;
          len -= got;
          continue;
        }
        if (!fill()) {
          throw new EOFException("segment ends inside a record");
        }
      }
      int n = Math.min(len, bufferEnd - bufferPos);
      System.arraycopy(buffer, bufferPos, dst, off, n);
      bufferPos += n;
      off += n;
      len -= n;
    }
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
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      in.close();
    }
  }
}
