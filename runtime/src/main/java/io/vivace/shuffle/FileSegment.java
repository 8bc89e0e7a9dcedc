package io.vivace.shuffle;

import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.channels.Channels;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.io.DataInputBuffer;

/**
 * A segment stored in a byte range of a local file. Several segments may share one file (one per
 * partition); the file is deleted when the last of them is released.
 */
public final class FileSegment implements Segment {

  private static final int READ_BUFFER = 128 * 1024;

  private final File file;
  private final long offset;
  private final long length;
  private final AtomicInteger fileReferences;
  private boolean released;

  public FileSegment(File file, long offset, long length, AtomicInteger fileReferences) {
    this.file = file;
    this.offset = offset;
    this.length = length;
    this.fileReferences = fileReferences;
  }

  public File file() {
    return file;
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public boolean inMemory() {
    return false;
  }

  @Override
  public SegmentReader open() throws IOException {
    RandomAccessFile raf = new RandomAccessFile(file, "r");
    raf.seek(offset);
    return new Reader(raf, length);
  }

  @Override
  public synchronized void release() {
    if (released) {
      return;
    }
    released = true;
    if (fileReferences == null || fileReferences.decrementAndGet() == 0) {
      file.delete();
    }
  }

  private static final class Reader implements SegmentReader {
    private final RandomAccessFile raf;
    private final InputStream in;
    private final byte[] buffer = new byte[READ_BUFFER];
    private int bufferPos;
    private int bufferEnd;
    private long remaining;
    private byte[] record = new byte[256];
    private final DataInputBuffer key = new DataInputBuffer();
    private final DataInputBuffer value = new DataInputBuffer();

    Reader(RandomAccessFile raf, long length) {
      this.raf = raf;
      this.in = Channels.newInputStream(raf.getChannel());
      this.remaining = length;
    }

    @Override
    public boolean next() throws IOException {
      if (remaining <= 0 && bufferPos >= bufferEnd) {
        return false;
      }
      int keyLength = readVInt();
      int valueLength = readVInt();
      int total = keyLength + valueLength;
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

    private boolean fill() throws IOException {
      int want = (int) Math.min(buffer.length - bufferEnd, remaining);
      if (want <= 0) {
        return false;
      }
      int got = in.read(buffer, bufferEnd, want);
      if (got < 0) {
        throw new EOFException("segment file is shorter than its index says");
      }
      bufferEnd += got;
      remaining -= got;
      return true;
    }

    private void readFully(byte[] dst, int off, int len) throws IOException {
      while (len > 0) {
        if (bufferPos >= bufferEnd) {
          bufferPos = 0;
          bufferEnd = 0;
          if (len >= buffer.length) {
            int want = (int) Math.min(len, remaining);
            int got = in.read(dst, off, want);
            if (got <= 0) {
              throw new EOFException("segment ends inside a record");
            }
            remaining -= got;
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
      raf.close();
    }
  }
}
