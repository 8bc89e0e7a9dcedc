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
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.io.serializer.WritableSerialization;

/**
 * Deserialises keys or values of map output that lie in a byte array, into the object the last
 * call returned as Hadoop's deserialisers do. Under {@code WritableSerialization}, a {@code Text},
 * {@code IntWritable} or {@code LongWritable} (the declared class exactly) is set straight from the
 * bytes, as its {@code readFields} would set it; the first object is made by the job's deserialiser,
 * and every other class goes through that deserialiser, whose {@code DataInputStream} makes a call
 * per byte or field.
 */
class FieldReader<T> {

  private static final Class<?> WRITABLE_DESERIALIZER =
      new WritableSerialization().getDeserializer(Writable.class).getClass();

  private final Deserializer<T> deserializer;
  private final DataInputBuffer buffer = new DataInputBuffer();

  private FieldReader(Deserializer<T> deserializer) throws IOException {
    this.deserializer = deserializer;
    deserializer.open(buffer);
  }

  /** The field at {@code start..end} of {@code data}, read into {@code reuse} where it can be. */
  T read(T reuse, byte[] data, int start, int end) throws IOException {
    buffer.reset(data, start, end - start);
    return deserializer.deserialize(reuse);
  }

  static <T> FieldReader<T> of(SerializationFactory factory, Class<T> type) throws IOException {
    Deserializer<T> deserializer = factory.getDeserializer(type);
    if (deserializer == null) {
      throw new IOException("No deserializer for map output class " + type.getName()
          + " in \"io.serializations\"");
    }
    if (deserializer.getClass() == WRITABLE_DESERIALIZER) {
      if (type == Text.class) {
        return new FieldReader<>(deserializer) {
          @Override
          T read(T reuse, byte[] data, int start, int end) throws IOException {
            if (reuse == null) {
              return super.read(null, data, start, end);
            }
            // Text.readFields: a vint length, then that many bytes
            int lengthBytes = WritableUtils.decodeVIntSize(data[start]);
            int length = WritableComparator.readVInt(data, start);
            if (length < 0 || start + lengthBytes + length > end) {
              throw new IOException("Corrupt Text record at offset " + start + ": length " + length);
            }
            ((Text) reuse).set(data, start + lengthBytes, length);
            return reuse;
          }
        };
      }
      if (type == IntWritable.class) {
        return new FieldReader<>(deserializer) {
          @Override
          T read(T reuse, byte[] data, int start, int end) throws IOException {
            if (reuse == null) {
              return super.read(null, data, start, end);
            }
            ((IntWritable) reuse).set(WritableComparator.readInt(data, start));
            return reuse;
          }
        };
      }
      if (type == LongWritable.class) {
        return new FieldReader<>(deserializer) {
          @Override
          T read(T reuse, byte[] data, int start, int end) throws IOException {
            if (reuse == null) {
              return super.read(null, data, start, end);
            }
            ((LongWritable) reuse).set(WritableComparator.readLong(data, start));
            return reuse;
          }
        };
      }
    }
    return new FieldReader<>(deserializer);
  }
}
