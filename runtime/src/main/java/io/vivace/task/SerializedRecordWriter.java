package io.vivace.task;

import io.vivace.segment.SegmentWriter;
import io.vivace.segment.VarInts;
import io.vivace.sort.FieldSerializer;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.hadoop.mapreduce.Counter;

/**
 * Serialises key/value objects with the job's serialisations and appends them to a segment; Text,
 * IntWritable and LongWritable are written straight into the record's bytes ({@link
 * FieldSerializer}).
 */
final class SerializedRecordWriter<K, V> {

  private final RecordBytes buffer = new RecordBytes();
  private final FieldSerializer<K> keySerializer;
  private final FieldSerializer<V> valueSerializer;
  private final Counter records;
  private SegmentWriter out;

  SerializedRecordWriter(AttemptSerializations serializations, Class<K> keyClass, Class<V> valueClass,
                         Counter records) throws IOException {
    Serializer<K> keys = serializations.serializer(keyClass, "map output key");
    Serializer<V> values = serializations.serializer(valueClass, "map output value");
    keys.open(buffer);
    values.open(buffer);
    this.keySerializer = FieldSerializer.of(keys, buffer);
    this.valueSerializer = FieldSerializer.of(values, buffer);
    this.records = records;
  }

  void target(SegmentWriter out) {
    this.out = out;
  }

  void write(K key, V value) throws IOException {
    buffer.length = 0;
    keySerializer.serialize(key);
    int keyLength = buffer.length;
    valueSerializer.serialize(value);
    out.append(buffer.bytes, 0, keyLength, buffer.bytes, keyLength, buffer.length - keyLength);
    records.increment(1);
  }

  /** One record's bytes; unlike a DataOutputBuffer, no lock per byte written. */
  private static final class RecordBytes extends OutputStream implements FieldSerializer.Sink {
    private byte[] bytes = new byte[64];
    private int length;

    private void ensure(int more) {
      if (length + more > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
      }
    }

    @Override
    public void write(int b) {
      ensure(1);
      bytes[length++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      ensure(len);
      System.arraycopy(b, off, bytes, length, len);
      length += len;
    }

    @Override
    public void writeVInt(int v) {
      ensure(Long.BYTES + 1);
      length = VarInts.write(v, bytes, length);
    }

    @Override
    public void writeBigEndian(long v, int bytes) {
      ensure(bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        this.bytes[length + i] = (byte) v;
        v >>>= 8;
      }
      length += bytes;
    }
  }
}
