package io.vivace.task;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vivace.segment.SegmentWriter;
import io.vivace.sort.LoudText;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.hadoop.mapreduce.counters.GenericCounter;
import org.junit.jupiter.api.Test;

/**
 * The combiner's output records hold the bytes Hadoop's serialisation writes: Text, IntWritable
 * and LongWritable written straight into the record, a subclass by its own {@code write}, records
 * longer than the record buffer's first size included.
 */
class SerializedRecordWriterTest {


  /** The segment Hadoop's serialisers give for these records. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static byte[] hadoops(SerializationFactory factory, Class<?> keyClass, Class<?> valueClass,
                                List<Writable[]> records) throws IOException {
    DataOutputBuffer buffer = new DataOutputBuffer();
    Serializer keys = factory.getSerializer(keyClass);
    Serializer values = factory.getSerializer(valueClass);
    keys.open(buffer);
    values.open(buffer);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    SegmentWriter out = new SegmentWriter(bytes);
    for (Writable[] r : records) {
      buffer.reset();
      keys.serialize(r[0]);
      int keyLength = buffer.getLength();
      values.serialize(r[1]);
      out.append(buffer.getData(), 0, keyLength, buffer.getData(), keyLength, buffer.getLength() - keyLength);
    }
    return bytes.toByteArray();
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void assertSameBytes(Class<?> keyClass, Class<?> valueClass, List<Writable[]> records)
      throws IOException {
    AttemptSerializations serializations = new AttemptSerializations(new Configuration());
    SerializationFactory factory = serializations.factory();
    GenericCounter counter = new GenericCounter("combine output", "combine output");
    SerializedRecordWriter writer = new SerializedRecordWriter(serializations, keyClass, valueClass, counter);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    writer.target(new SegmentWriter(bytes));
    for (Writable[] r : records) {
      writer.write(r[0], r[1]);
    }
    assertArrayEquals(hadoops(factory, keyClass, valueClass, records), bytes.toByteArray());
    assertEquals(records.size(), counter.getValue());
  }

  @Test
  void textAndIntWritableAsHadoopWritesThem() throws IOException {
    assertSameBytes(Text.class, IntWritable.class, List.of(
        new Writable[] {new Text(""), new IntWritable(0)},
        new Writable[] {new Text("word"), new IntWritable(-1)},
        new Writable[] {new Text("\u00e9t\u00e9 " + "x".repeat(300)), new IntWritable(Integer.MAX_VALUE)},
        new Writable[] {new Text("after a long one"), new IntWritable(Integer.MIN_VALUE)}));
  }

  @Test
  void longWritablesAsHadoopWritesThem() throws IOException {
    assertSameBytes(LongWritable.class, LongWritable.class, List.of(
        new Writable[] {new LongWritable(Long.MIN_VALUE), new LongWritable(Long.MAX_VALUE)},
        new Writable[] {new LongWritable(0), new LongWritable(-2)}));
  }

  @Test
  void aSubclassWritesItself() throws IOException {
    assertSameBytes(Text.class, Text.class, List.of(
        new Writable[] {new LoudText("quiet"), new Text("as is")},
        new Writable[] {new Text("plain"), new LoudText("y".repeat(100))}));
  }
}
