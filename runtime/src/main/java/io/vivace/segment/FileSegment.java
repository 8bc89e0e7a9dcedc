package io.vivace.segment;

import java.io.BufferedInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A segment stored in a byte range of a local file, raw or compressed. Several segments may share
 * one file (one per partition); the file is deleted when the last of them is released.
 */
public final class FileSegment implements Segment {

  /** Read size of raw segments: large sequential reads. */
  private static final int READ_BUFFER = 128 * 1024;
  /** Compressed segments: read size of the file and of the decompressed records. */
  private static final int COMPRESSED_READ_BUFFER = 64 * 1024;

  private final File file;
  private final long offset;
  private final long length;
  private final AtomicInteger fileReferences;
  private final SegmentCodec codec;
  private boolean released;

  /** A raw segment. */
  public FileSegment(File file, long offset, long length, AtomicInteger fileReferences) {
    this(file, offset, length, fileReferences, SegmentCodec.NONE);
  }

  public FileSegment(File file, long offset, long length, AtomicInteger fileReferences, SegmentCodec codec) {
    this.file = file;
    this.offset = offset;
    this.length = length;
    this.fileReferences = fileReferences;
    this.codec = codec;
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
  public boolean streamed() {
    return true;
  }

  @Override
  public SegmentCodec codec() {
    return codec;
  }

  @Override
  public void copyStoredBytesTo(java.io.OutputStream out) throws IOException {
    if (released) {
      throw new IllegalStateException("segment already released");
    }
    try (InputStream in = new FileRange(file, offset, length)) {
      in.transferTo(out);
    }
  }

  @Override
  public SegmentReader open() throws IOException {
    FileRange range = new FileRange(file, offset, length);
    if (!codec.compresses()) {
      return new StreamSegmentReader(range, READ_BUFFER, false);
    }
    InputStream in;
    try {
      in = codec.decompressing(new BufferedInputStream(range, COMPRESSED_READ_BUFFER));
    } catch (IOException | RuntimeException e) {
      range.close();
      throw e;
    }
    return new StreamSegmentReader(in, COMPRESSED_READ_BUFFER, true);
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
}
