package io.vivace.segment;

import io.vivace.localdisk.LocalFileStatistics;
import io.vivace.localdisk.ScratchDir;
import io.vivace.localdisk.ScratchOutput;
import java.io.File;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;
import org.apache.hadoop.io.DataOutputBuffer;

/**
 * Writes the segments of several partitions, in increasing partition order, into one heap buffer;
 * {@link #finish()} then makes them {@link MemorySegment}s, or writes the same bytes to a local file
 * when they may not stay on the heap.
 */
public final class PartitionedMemoryWriter extends PartitionedWriter {

  private final DataOutputBuffer buffer;
  private byte[] data;

  /**
   * @param initialCapacity bytes to allocate up front (the buffer grows as needed)
   * @param compressor null for raw segments
   */
  public PartitionedMemoryWriter(int partitions, int initialCapacity, SegmentCompressor compressor) {
    this(new DataOutputBuffer(Math.max(32, initialCapacity)), partitions, compressor);
  }

  private PartitionedMemoryWriter(DataOutputBuffer buffer, int partitions, SegmentCompressor compressor) {
    super(buffer, partitions, compressor);
    this.buffer = buffer;
  }

  /** Ends writing; from now on {@link #bytes()} is the size of the buffer's content. */
  public void finish() throws IOException {
    endAll();
    data = buffer.getData();
  }

  /**
   * Gives back the buffer's spare capacity when it exceeds an eighth of the content, so that a
   * budget charged {@link #bytes()} accounts for nearly all the heap the segments hold.
   */
  public void trim() {
    long used = bytes();
    if (data.length - used > used / 8) {
      data = Arrays.copyOf(data, (int) used);
    }
  }

  /**
   * One segment per non-empty partition, reading the buffer in place; {@code onRelease} receives
   * the bytes each gives back when released (to a memory budget), or is null.
   */
  public Segment[] memorySegments(LongConsumer onRelease) {
    Segment[] segments = new Segment[partitions()];
    for (int p = 0; p < segments.length; p++) {
      if (length(p) > 0) {
        segments[p] = new MemorySegment(data, (int) start(p), (int) length(p), onRelease, codec());
      }
    }
    return segments;
  }

  /**
   * Writes the buffer to a new file {@code name} of {@code dir} and returns one segment per
   * non-empty partition of it.
   */
  public Segment[] writeTo(ScratchDir dir, String name) throws IOException {
    ScratchOutput out = dir.create(name, bytes());
    try (out) {
      out.write(data, 0, (int) bytes());
    } catch (IOException e) {
      out.file().delete();
      throw e;
    }
    File file = out.file();
    LocalFileStatistics.written(bytes());
    AtomicInteger references = new AtomicInteger();
    Segment[] segments = new Segment[partitions()];
    for (int p = 0; p < segments.length; p++) {
      if (length(p) > 0) {
        references.incrementAndGet();
        segments[p] = new FileSegment(file, start(p), length(p), references, codec());
      }
    }
    if (references.get() == 0) {
      file.delete();
    }
    return segments;
  }
}
