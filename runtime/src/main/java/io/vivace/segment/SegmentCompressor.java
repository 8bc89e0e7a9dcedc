package io.vivace.segment;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionOutputStream;
import org.apache.hadoop.io.compress.Compressor;

/**
 * Compresses segments one after another for one writer (a task): one pooled {@link Compressor} and
 * one codec stream, reused for every segment ({@code resetState} starts the next one), so writing
 * many partitions and spills allocates no codec buffers beyond the first. Taken from the pool on
 * first use; {@link #close()} gives it back.
 */
public final class SegmentCompressor implements Closeable {

  private final SegmentCodec owner;
  private final CompressionCodec codec;
  private final Target target = new Target();
  private Compressor compressor;
  private CompressionOutputStream stream;
  private boolean open;
  private boolean closed;

  SegmentCompressor(SegmentCodec owner) {
    this.owner = owner;
    this.codec = owner.codec();
  }

  /** How the segments this compressor writes are read back. */
  public SegmentCodec codec() {
    return owner;
  }

  /** Starts a segment written to {@code out}; returns the stream its raw bytes go to. */
  public OutputStream begin(OutputStream out) throws IOException {
    if (open || closed) {
      throw new IllegalStateException(closed ? "compressor closed" : "segment already open");
    }
    target.out = out;
    if (stream == null) {
      compressor = CodecPool.getCompressor(codec);
      stream = compressor == null ? codec.createOutputStream(target)
          : codec.createOutputStream(target, compressor);
    } else {
      stream.resetState();
    }
    open = true;
    return stream;
  }

  /** Ends the segment: every compressed byte of it has been written to the stream given to begin. */
  public void end() throws IOException {
    if (!open) {
      throw new IllegalStateException("no segment open");
    }
    open = false;
    stream.finish();
    target.out = null;
  }

  /** Gives the compressor back to the pool; the codec stream stays unclosed (closing would close its target). */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    open = false;
    if (compressor != null) {
      CodecPool.returnCompressor(compressor);
      compressor = null;
    }
    stream = null;
  }

  /** The codec stream's fixed target, pointed at each segment's destination in turn. */
  private static final class Target extends OutputStream {
    private OutputStream out;

    @Override
    public void write(int b) throws IOException {
      out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    /** The destination is flushed by its owner; codec streams flush on finish() in some versions. */
    @Override
    public void flush() {
    }
  }
}
