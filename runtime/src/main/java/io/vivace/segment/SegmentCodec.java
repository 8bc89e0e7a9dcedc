package io.vivace.segment;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionInputStream;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * How one job's map output segments are stored: raw, or each segment one stream of the job's
 * {@code mapreduce.map.output.compress.codec} (as Hadoop's IFile compresses each partition of a
 * spill). Writers take a compressor from Hadoop's {@link CodecPool} through a {@link
 * SegmentCompressor}; each open reader of a compressed segment holds a pooled decompressor until it
 * reaches the segment's end or is closed. Thread-safe: one instance serves all tasks of a job.
 */
public final class SegmentCodec {

  /** Map output stored as it is serialised. */
  public static final SegmentCodec NONE = new SegmentCodec(null);

  private final CompressionCodec codec;

  private SegmentCodec(CompressionCodec codec) {
    this.codec = codec;
  }

  /** Segments compressed with {@code codec} (tests and tools; jobs use {@link #forJob}). */
  public static SegmentCodec of(CompressionCodec codec) {
    return codec == null ? NONE : new SegmentCodec(codec);
  }

  /**
   * The map output codec a job asks for ({@code mapreduce.map.output.compress} and {@code
   * mapreduce.map.output.compress.codec}, Hadoop's DefaultCodec when only the first is set),
   * loaded with the job's class loader and tried once: a codec that cannot be loaded, or whose
   * compressor or decompressor does not work here (a native-only codec without libhadoop), fails
   * with a message naming the key and the class instead of failing every map attempt.
   */
  public static SegmentCodec forJob(Configuration conf) throws IOException {
    if (!conf.getBoolean(MRJobConfig.MAP_OUTPUT_COMPRESS, false)) {
      return NONE;
    }
    String name = conf.getTrimmed(MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC);
    if (name == null || name.isEmpty()) {
      name = DefaultCodec.class.getName();
    }
    Class<?> cls;
    try {
      cls = conf.getClassByName(name);
    } catch (ClassNotFoundException | LinkageError e) {
      throw unusable(name, "class not found (" + e + ")", e);
    }
    if (!CompressionCodec.class.isAssignableFrom(cls)) {
      throw unusable(name, "not a " + CompressionCodec.class.getName(), null);
    }
    SegmentCodec result;
    try {
      result = new SegmentCodec((CompressionCodec) ReflectionUtils.newInstance(cls, conf));
      result.selfTest();
    } catch (IOException | RuntimeException | LinkageError e) {
      throw unusable(name, e.toString(), e);
    }
    return result;
  }

  private static IOException unusable(String name, String why, Throwable cause) {
    return new IOException("Map output compression is on (" + MRJobConfig.MAP_OUTPUT_COMPRESS
        + "=true) but its codec cannot be used: " + MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC + "="
        + name + ": " + why, cause);
  }

  /** Writes and reads back two small segments the way the job's tasks will. */
  private void selfTest() throws IOException {
    byte[] probe = "vivace map output codec probe: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".getBytes();
    ByteArrayOutputStream stored = new ByteArrayOutputStream();
    int[] ends = new int[2];
    try (SegmentCompressor compressor = newCompressor()) {
      for (int i = 0; i < ends.length; i++) {
        OutputStream out = compressor.begin(stored);
        out.write(probe);
        compressor.end();
        ends[i] = stored.size();
      }
    }
    byte[] bytes = stored.toByteArray();
    for (int i = 0; i < ends.length; i++) {
      int start = i == 0 ? 0 : ends[i - 1];
      try (InputStream in = decompressing(new ByteArrayInputStream(bytes, start, ends[i] - start))) {
        if (!Arrays.equals(probe, in.readAllBytes())) {
          throw new IOException("data read back differs from the data written");
        }
      }
    }
  }

  public boolean compresses() {
    return codec != null;
  }

  /** The codec, or null when segments are raw. */
  public CompressionCodec codec() {
    return codec;
  }

  /** A compressor for one writer (a task); close it to give its pooled compressor back. */
  public SegmentCompressor newCompressor() {
    if (codec == null) {
      throw new IllegalStateException("map output is not compressed");
    }
    return new SegmentCompressor(this);
  }

  /**
   * The raw bytes of the compressed segment {@code compressed} holds (it must end where the
   * segment ends). Closing the stream closes {@code compressed} and gives the pooled decompressor
   * back; after that the stream must not be used.
   */
  InputStream decompressing(InputStream compressed) throws IOException {
    Decompressor decompressor = CodecPool.getDecompressor(codec);
    try {
      return new Decompressing(decompressor == null ? codec.createInputStream(compressed)
          : codec.createInputStream(compressed, decompressor), decompressor);
    } catch (IOException | RuntimeException | Error e) {
      CodecPool.returnDecompressor(decompressor);
      throw e;
    }
  }

  @Override
  public String toString() {
    return codec == null ? "none" : codec.getClass().getName();
  }

  /** A decompressing stream that returns its decompressor to the pool once, when closed. */
  private static final class Decompressing extends InputStream {
    private final CompressionInputStream in;
    private Decompressor decompressor;
    private boolean closed;

    Decompressing(CompressionInputStream in, Decompressor decompressor) {
      this.in = in;
      this.decompressor = decompressor;
    }

    @Override
    public int read() throws IOException {
      return in.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return in.read(b, off, len);
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      try {
        in.close();
      } finally {
        if (decompressor != null) {
          CodecPool.returnDecompressor(decompressor);
          decompressor = null;
        }
      }
    }
  }
}
