package io.vivace.task;

import io.vivace.shuffle.SegmentWriter;
import java.io.IOException;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.hadoop.mapreduce.Counter;

/** Serialises key/value objects with the job's serialisations and appends them to a segment. */
final class SerializedRecordWriter<K, V> {

  private final DataOutputBuffer buffer = new DataOutputBuffer();
  private final Serializer<K> keySerializer;
  private final Serializer<V> valueSerializer;
  private final Counter records;
  private SegmentWriter out;

  SerializedRecordWriter(SerializationFactory factory, Class<K> keyClass, Class<V> valueClass,
                         Counter records) throws IOException {
    this.keySerializer = factory.getSerializer(keyClass);
    this.valueSerializer = factory.getSerializer(valueClass);
    keySerializer.open(buffer);
    valueSerializer.open(buffer);
    this.records = records;
  }

  void target(SegmentWriter out) {
    this.out = out;
  }

  void write(K key, V value) throws IOException {
    buffer.reset();
    keySerializer.serialize(key);
    int keyLength = buffer.getLength();
    valueSerializer.serialize(value);
    byte[] data = buffer.getData();
    out.append(data, 0, keyLength, data, keyLength, buffer.getLength() - keyLength);
    records.increment(1);
  }
}
