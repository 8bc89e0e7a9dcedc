package io.vivace.segment;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes the segments of several partitions, in increasing partition order, one after another
 * into one destination, and records where each begins. Raw segments are the records in {@link
 * SegmentWriter}'s format; with a {@link SegmentCompressor} each non-empty segment is one
 * compressed stream of them and the end marker. Records reach the codec through a staging buffer,
 * in large writes however small they are.
 */
public abstract class PartitionedWriter {

  private static final int STAGING_BYTES = 64 * 1024;

  private final SegmentCompressor compressor;
  private final Counting stored;
  private final Staging staging;
  private final SegmentWriter writer;
  private final long[] starts;
  private final long[] lengths;
  private OutputStream compressed;
  private int current = -1;

  /**
   * @param destination where the stored bytes go
   * @param compressor null for raw segments
   */
  protected PartitionedWriter(OutputStream destination, int partitions, SegmentCompressor compressor) {
    this.compressor = compressor;
    this.starts = new long[partitions];
    this.lengths = new long[partitions];
    if (compressor == null) {
      this.stored = null;
      this.staging = null;
      this.writer = new SegmentWriter(destination);
    } else {
      this.stored = new Counting(destination);
      this.staging = new Staging();
      this.writer = new SegmentWriter(staging);
    }
  }

  /** How the segments are read back. */
  public SegmentCodec codec() {
    return compressor == null ? SegmentCodec.NONE : compressor.codec();
  }

  /** Starts the records of {@code partition}; returns the writer to append them to. */
  public SegmentWriter startPartition(int partition) throws IOException {
    if (partition <= current) {
      throw new IllegalStateException("partitions must be written in increasing order");
    }
    endCurrent();
    current = partition;
    starts[partition] = stored();
    return writer;
  }

  /** Bytes in the destination so far (compressed bytes when compressing). */
  public long bytes() {
    return stored();
  }

  private long stored() {
    return stored == null ? writer.position() : stored.count;
  }

  /** Records written so far. */
  public long records() {
    return writer.records();
  }

  /** Ends the last partition; from now on {@link #start(int)} and {@link #length(int)} are final. */
  protected void endAll() throws IOException {
    endCurrent();
    current = Integer.MAX_VALUE;
  }

  /** Where the segment of {@code partition} begins in the destination. */
  public long start(int partition) {
    return starts[partition];
  }

  /** Stored bytes of the segment of {@code partition}; 0 when it has no records. */
  public long length(int partition) {
    return lengths[partition];
  }

  public int partitions() {
    return starts.length;
  }

  private void endCurrent() throws IOException {
    if (current < 0 || current == Integer.MAX_VALUE) {
      return;
    }
    if (staging != null && (compressed != null || staging.count > 0)) {
      writer.endMarker();
      staging.drain();
      compressed = null;
      compressor.end();
    }
    lengths[current] = stored() - starts[current];
  }

  /** The current segment's codec stream, started on its first bytes: empty segments stay empty. */
  private OutputStream compressed() throws IOException {
    if (compressed == null) {
      compressed = compressor.begin(stored);
    }
    return compressed;
  }

  /** Raw record bytes on their way to the codec. */
  private final class Staging extends OutputStream {
    private final byte[] buffer = new byte[STAGING_BYTES];
    private int count;

    @Override
    public void write(int b) throws IOException {
      if (count == buffer.length) {
        drain();
      }
      buffer[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (len > buffer.length - count) {
        drain();
        if (len >= buffer.length) {
          compressed().write(b, off, len);
          return;
        }
      }
      System.arraycopy(b, off, buffer, count, len);
      count += len;
    }

    void drain() throws IOException {
      if (count > 0) {
        compressed().write(buffer, 0, count);
        count = 0;
      }
    }
  }

  /** Counts the stored bytes. */
  private static final class Counting extends OutputStream {
    private final OutputStream out;
    private long count;

    Counting(OutputStream out) {
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      count += len;
    }
  }
}
