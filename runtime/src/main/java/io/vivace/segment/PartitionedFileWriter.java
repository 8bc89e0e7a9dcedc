package io.vivace.segment;

import io.vivace.localdisk.LocalFileStatistics;
import io.vivace.localdisk.ScratchDir;
import io.vivace.localdisk.ScratchOutput;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writes the segments of several partitions, in increasing partition order, into one local file
 * and describes each non-empty one as a {@link FileSegment}.
 */
public final class PartitionedFileWriter extends PartitionedWriter implements Closeable {

  private static final int WRITE_BUFFER = 256 * 1024;

  private final ScratchOutput file;
  private final OutputStream out;
  private boolean closed;

  /** Raw segments, into {@code file}. */
  public PartitionedFileWriter(File file, int partitions) throws IOException {
    this(file, partitions, null);
  }

  /** Segments compressed with {@code compressor}, or raw when it is null, into {@code file}. */
  public PartitionedFileWriter(File file, int partitions, SegmentCompressor compressor) throws IOException {
    this(ScratchDir.of(file.getParentFile()).create(file.getName(), 0), partitions, compressor);
  }

  /**
   * Segments compressed with {@code compressor}, or raw when it is null, into a new file {@code name}
   * of {@code dir}, on the local disk chosen for {@code expectedBytes}.
   */
  public PartitionedFileWriter(ScratchDir dir, String name, long expectedBytes, int partitions,
                               SegmentCompressor compressor) throws IOException {
    this(dir.create(name, expectedBytes), partitions, compressor);
  }

  private PartitionedFileWriter(ScratchOutput file, int partitions, SegmentCompressor compressor) {
    this(file, new BufferedOutputStream(file, WRITE_BUFFER), partitions, compressor);
  }

  private PartitionedFileWriter(ScratchOutput file, OutputStream out, int partitions, SegmentCompressor compressor) {
    super(out, partitions, compressor);
    this.file = file;
    this.out = out;
  }

  /** The file written (it may have moved to another local disk while it was written). */
  public File file() {
    return file.file();
  }

  /** Closes the file; entries for empty partitions are null. Deletes the file if all are empty. */
  public FileSegment[] finish() throws IOException {
    endAll();
    close();
    LocalFileStatistics.written(bytes());
    File written = file();
    FileSegment[] segments = new FileSegment[partitions()];
    AtomicInteger references = new AtomicInteger();
    for (int p = 0; p < segments.length; p++) {
      if (length(p) > 0) {
        references.incrementAndGet();
        segments[p] = new FileSegment(written, start(p), length(p), references, codec());
      }
    }
    if (references.get() == 0) {
      written.delete();
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
    file().delete();
  }

  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      out.close();
    }
  }
}
