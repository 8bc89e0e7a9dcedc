package io.vivace.task;

import java.io.IOException;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.WritableSerialization;

/**
 * Deserialises keys or values of map output that lie in a byte array, into the object the last
 * call returned as Hadoop's deserialisers do. Under {@code WritableSerialization}, a {@code Text},
 * {@code IntWritable} or {@code LongWritable} (the declared class exactly) is set straight from
 * the bytes, as its {@code readFields} would set it; the first object is made by the job's
 * deserialiser, and every other class goes through that deserialiser, whose {@code
 * DataInputStream} makes a call per byte or field.
 */
final class FieldReader<T> {

  private static final Class<?> WRITABLE_DESERIALIZER =
      new WritableSerialization().getDeserializer(Writable.class).getClass();

  /** Sets an object of the declared class from its serialised bytes, as its readFields would. */
  @FunctionalInterface
  private interface InPlace {
    void set(Object reuse, byte[] data, int start, int end) throws IOException;
  }

  private final Deserializer<T> deserializer;
  /** Null where every field goes through the deserialiser. */
  private final InPlace inPlace;
  private final DataInputBuffer buffer = new DataInputBuffer();

  private FieldReader(Deserializer<T> deserializer, InPlace inPlace) throws IOException {
    this.deserializer = deserializer;
    this.inPlace = inPlace;
    deserializer.open(buffer);
  }

  /** The field at {@code start..end} of {@code data}, read into {@code reuse} where it can be. */
  T read(T reuse, byte[] data, int start, int end) throws IOException {
    if (reuse != null && inPlace != null) {
      inPlace.set(reuse, data, start, end);
      return reuse;
    }
    buffer.reset(data, start, end - start);
    return deserializer.deserialize(reuse);
  }

  static <T> FieldReader<T> of(AttemptSerializations serializations, Class<T> type, String role)
      throws IOException {
    Deserializer<T> deserializer = serializations.deserializer(type, role);
    boolean writable = deserializer.getClass() == WRITABLE_DESERIALIZER;
    return new FieldReader<>(deserializer, writable ? inPlaceSetter(type) : null);
  }

  /** How an object of exactly {@code type} is set from its bytes; null for other classes. */
  private static InPlace inPlaceSetter(Class<?> type) {
    if (type == Text.class) {
      return FieldReader::setText;
    }
    if (type == IntWritable.class) {
      return (reuse, data, start, end) ->
          ((IntWritable) reuse).set(WritableComparator.readInt(data, start));
    }
    if (type == LongWritable.class) {
      return (reuse, data, start, end) ->
          ((LongWritable) reuse).set(WritableComparator.readLong(data, start));
    }
    return null;
  }

  /** As Text.readFields: a vint length, then that many bytes. */
  private static void setText(Object reuse, byte[] data, int start, int end) throws IOException {
    int lengthBytes = WritableUtils.decodeVIntSize(data[start]);
    int length = WritableComparator.readVInt(data, start);
    if (length < 0 || start + lengthBytes + length > end) {
      throw new IOException("Corrupt Text record at offset " + start + ": length " + length);
    }
    ((Text) reuse).set(data, start + lengthBytes, length);
  }
}
