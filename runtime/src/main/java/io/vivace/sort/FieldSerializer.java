package io.vivace.sort;

import java.io.IOException;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.hadoop.io.serializer.WritableSerialization;

/**
 * Serialises the keys or the values of map output into the sort buffer. Under Hadoop's
 * {@code WritableSerialization}, objects of exactly {@code Text}, {@code IntWritable} or
 * {@code LongWritable} are written straight into the buffer, the bytes their {@code
 * write(DataOutput)} writes; anything else, subclasses included, goes through the job's
 * {@link Serializer}, whose {@code DataOutputStream} makes a call into the buffer for every byte
 * or field.
 */
class FieldSerializer<T> {

  private static final Class<?> WRITABLE_SERIALIZER =
      new WritableSerialization().getSerializer(Writable.class).getClass();

  final Serializer<T> serializer;

  private FieldSerializer(Serializer<T> serializer) {
    this.serializer = serializer;
  }

  void serialize(T object) throws IOException {
    serializer.serialize(object);
  }

  /** The serialiser for a field written by {@code serializer}, which already writes to {@code sink}. */
  static <T> FieldSerializer<T> of(Serializer<T> serializer, MapOutputBuffer<?, ?>.RecordSink sink) {
    return serializer.getClass() == WRITABLE_SERIALIZER
        ? new Writables<>(serializer, sink) : new FieldSerializer<>(serializer);
  }

  private static final class Writables<T> extends FieldSerializer<T> {
    private final MapOutputBuffer<?, ?>.RecordSink sink;

    Writables(Serializer<T> serializer, MapOutputBuffer<?, ?>.RecordSink sink) {
      super(serializer);
      this.sink = sink;
    }

    @Override
    void serialize(T object) throws IOException {
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
