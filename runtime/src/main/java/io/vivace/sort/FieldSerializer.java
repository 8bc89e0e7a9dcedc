package io.vivace.sort;

import java.io.IOException;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.hadoop.io.serializer.WritableSerialization;

/**
 * Serialises the keys or the values of map output into a {@link Sink}: the sort buffer, or the
 * combiner's output. Under Hadoop's
 * {@code WritableSerialization}, objects of exactly {@code Text}, {@code IntWritable} or
 * {@code LongWritable} are written straight into the buffer, the bytes their {@code
 * write(DataOutput)} writes; anything else, subclasses included, goes through the job's
 * {@link Serializer}, whose {@code DataOutputStream} makes a call into the buffer for every byte
 * or field.
 */
public class FieldSerializer<T> {

  /** Where the serialiser writes: the bytes a {@link java.io.DataOutput} would be given. */
  public interface Sink {
    /** As {@link org.apache.hadoop.io.WritableUtils#writeVInt}. */
    void writeVInt(int v) throws IOException;

    void write(byte[] b, int off, int len) throws IOException;

    /**
     * The low {@code bytes} bytes of {@code v}, big-endian: {@link java.io.DataOutput#writeInt}
     * with 4, {@link java.io.DataOutput#writeLong} with 8.
     */
    void writeBigEndian(long v, int bytes) throws IOException;
  }

  private static final Class<?> WRITABLE_SERIALIZER =
      new WritableSerialization().getSerializer(Writable.class).getClass();

  final Serializer<T> serializer;

  private FieldSerializer(Serializer<T> serializer) {
    this.serializer = serializer;
  }

  public void serialize(T object) throws IOException {
    serializer.serialize(object);
  }

  /** The serialiser for a field written by {@code serializer}, which already writes to {@code sink}. */
  public static <T> FieldSerializer<T> of(Serializer<T> serializer, Sink sink) {
    return serializer.getClass() == WRITABLE_SERIALIZER
        ? new Writables<>(serializer, sink) : new FieldSerializer<>(serializer);
  }

  private static final class Writables<T> extends FieldSerializer<T> {
    private final Sink sink;

    Writables(Serializer<T> serializer, Sink sink) {
      super(serializer);
      this.sink = sink;
    }

    @Override
    public void serialize(T object) throws IOException {
      Class<?> type = object.getClass();
      if (type == Text.class) {
        // Text.write: a vint length, then the UTF-8 bytes
        Text text = (Text) object;
        sink.writeVInt(text.getLength());
        sink.write(text.getBytes(), 0, text.getLength());
      } else if (type == IntWritable.class) {
        sink.writeBigEndian(((IntWritable) object).get(), Integer.BYTES);
      } else if (type == LongWritable.class) {
        sink.writeBigEndian(((LongWritable) object).get(), Long.BYTES);
      } else {
        serializer.serialize(object);
      }
    }
  }
}
