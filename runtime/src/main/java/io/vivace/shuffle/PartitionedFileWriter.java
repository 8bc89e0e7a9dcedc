package io.vivace.shuffle;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writes the segments of several partitions, in increasing partition order, into one local file
 * and describes each non-empty one as a {@link FileSegment}.
 */
public final class PartitionedFileWriter implements Closeable {

  private static final int WRITE_BUFFER = 256 * 1024;

  private final File file;
  private final SegmentWriter writer;
  private final FileSegment[] segments;
  private final long[] starts;
  private final AtomicInteger references = new AtomicInteger();
  private int current = -1;
  private boolean closed;

  public PartitionedFileWriter(File file, int partitions) throws IOException {
    this.file = file;
    this.writer = new SegmentWriter(new BufferedOutputStream(new FileOutputStream(file), WRITE_BUFFER));
    this.segments = new FileSegment[partitions];
    this.starts = new long[partitions];
  }

  /** Starts the records of {@code partition}; returns the writer to append them to. */
  public SegmentWriter startPartition(int partition) {
    if (partition <= current) {
      throw new IllegalStateException("partitions must be written in increasing order");
    }
    endCurrent();
    current = partition;
    starts[partition] = writer.position();
    return writer;
  }

  private void endCurrent() {
    if (current >= 0) {
      long length = writer.position() - starts[current];
      if (length > 0) {
        references.incrementAndGet();
        segments[current] = new FileSegment(file, starts[current], length, references);
      }
    }
  }

  public long records() {
    return writer.records();
  }

  public long bytes() {
    return writer.position();
  }

  /** Closes the file; entries for empty partitions are null. Deletes the file if all are empty. */
  public FileSegment[] finish() throws IOException {
    endCurrent();
    current = Integer.MAX_VALUE;
    close();
    if (references.get() == 0) {
      file.delete();
    }
    return segments;
  }

  /** Closes and deletes the file (on failure). */
  public void discard() {
    try {
      close();
    } catch (IOException ignored) {
      // the file goes anyway
    }
    file.delete();
  }

  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      writer.close();
    }
  }
}
