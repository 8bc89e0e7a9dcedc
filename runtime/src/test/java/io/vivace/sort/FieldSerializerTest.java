package io.vivace.sort;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.vivace.localdisk.ScratchDir;
import io.vivace.segment.SegmentReader;
import io.vivace.shuffle.MapOutput;
import io.vivace.shuffle.ShuffleMemory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Map output written straight into the sort buffer (Text, IntWritable, LongWritable) holds the
 * bytes Hadoop's own serialisation writes, also where records cross the end of the buffer and
 * spill; other classes, a subclass of Text included, are written by their own {@code write}.
 */
class FieldSerializerTest {

  @TempDir
  Path spillDir;

  private final Counters counters = new Counters();


  private <K, V> MapOutputBuffer<K, V> buffer(Class<K> keyClass, Class<V> valueClass, long limit)
      throws IOException {
    SerializationFactory factory = new SerializationFactory(new Configuration());
    MapOutputCounters mapCounters = new MapOutputCounters(counters.findCounter(TaskCounter.MAP_OUTPUT_RECORDS),
        counters.findCounter(TaskCounter.MAP_OUTPUT_BYTES), counters.findCounter(TaskCounter.SPILLED_RECORDS),
        counters.findCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES));
    MapOutputBuffer.Settings settings = new MapOutputBuffer.Settings(1, limit,
        WritableComparator.get(keyClass.asSubclass(org.apache.hadoop.io.WritableComparable.class)), null, 3, 10,
        ScratchDir.of(spillDir.toFile()), new ShuffleMemory(64L << 20), mapCounters);
    return new MapOutputBuffer<>(settings, factory.getSerializer(keyClass), factory.getSerializer(valueClass));
  }

  private static String hex(Writable w) throws IOException {
    DataOutputBuffer out = new DataOutputBuffer();
    w.write(out);
    return HexFormat.of().formatHex(out.getData(), 0, out.getLength());
  }

  private static String hex(DataInputBuffer in) {
    return HexFormat.of().formatHex(Arrays.copyOfRange(in.getData(), in.getPosition(), in.getLength()));
  }

  /** Every record of the output as "key hex/value hex", sorted. */
  private static List<String> records(MapOutput output) throws IOException {
    List<String> got = new ArrayList<>();
    try (SegmentReader reader = output.partition(0).open()) {
      while (reader.next()) {
        got.add(hex(reader.key()) + "/" + hex(reader.value()));
      }
    }
    got.sort(null);
    return got;
  }

  /** Compares sorted; names the first record that differs rather than printing them all. */
  private static void assertSameRecords(List<String> expected, List<String> got) {
    expected.sort(null);
    for (int i = 0; i < Math.min(expected.size(), got.size()); i++) {
      if (!expected.get(i).equals(got.get(i))) {
        String e = expected.get(i);
        String g = got.get(i);
        fail("record " + i + " of the sorted output: expected " + e.substring(0, Math.min(80, e.length()))
            + "..., got " + g.substring(0, Math.min(80, g.length())) + "...");
      }
    }
    assertEquals(expected.size(), got.size(), "records");
  }

  private static String text(Random random) {
    StringBuilder s = new StringBuilder();
    // up to 300 characters, some of them multi-byte: vint lengths of one and two bytes
    int length = random.nextInt(10) == 0 ? random.nextInt(300) : random.nextInt(12);
    for (int i = 0; i < length; i++) {
      s.append(random.nextInt(8) == 0 ? (char) (0xe0 + random.nextInt(20)) : (char) ('a' + random.nextInt(26)));
    }
    return s.toString();
  }

  /**
   * Runs {@code test} on a thread of its own, whose sort buffer starts small (a worker thread's
   * buffer stays with it): records then meet the buffer's end, mid-field, each time it grows.
   */
  private static void onFreshThread(Callable<Void> test) throws Exception {
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      thread.submit(test).get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw (Exception) e.getCause();
    } finally {
      thread.shutdownNow();
    }
  }

  /**
   * Enough records to grow a 1 MB buffer and spill it several times, and now and then a key of
   * hundreds of KB that does not fit what is left: the value behind it is written past the end.
   */
  @Test
  void textKeysAndLongValuesAreHadoopsBytes() throws Exception {
    long[] edges = {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE};
    onFreshThread(() -> {
      textKeysAnd(LongWritable.class, (i, random) ->
          new LongWritable(i % 7 == 0 ? edges[i % edges.length] : random.nextLong()));
      return null;
    });
  }

  @Test
  void textKeysAndIntValuesAreHadoopsBytes() throws Exception {
    onFreshThread(() -> {
      textKeysAnd(IntWritable.class, (i, random) ->
          new IntWritable(i % 7 == 0 ? Integer.MIN_VALUE + i % 3 : random.nextInt()));
      return null;
    });
  }

  private <V extends Writable> void textKeysAnd(Class<V> valueClass, BiFunction<Integer, Random, V> values)
      throws Exception {
    MapOutputBuffer<Text, V> buffer = buffer(Text.class, valueClass, 1L << 20);
    Random random = new Random(1);
    List<String> expected = new ArrayList<>();
    long bytes = 0;
    Text key = new Text();
    for (int i = 0; i < 60_000; i++) {
      key.set(i % 10_000 == 9_999 ? "K".repeat(300_000 + random.nextInt(400_000)) : text(random));
      V value = values.apply(i, random);
      buffer.collect(key, value, 0);
      String k = hex(key);
      String v = hex(value);
      expected.add(k + "/" + v);
      bytes += (k.length() + v.length()) / 2;
    }
    MapOutput output = buffer.finish();
    assertSameRecords(expected, records(output));
    assertEquals(60_000, counters.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue());
    assertEquals(bytes, counters.findCounter(TaskCounter.MAP_OUTPUT_BYTES).getValue());
    output.release();
  }

  @Test
  void intKeysAndTextValuesAreHadoopsBytes() throws Exception {
    onFreshThread(() -> {
      intKeysAndTextValues();
      return null;
    });
  }

  private void intKeysAndTextValues() throws Exception {
    MapOutputBuffer<IntWritable, Text> buffer = buffer(IntWritable.class, Text.class, 1L << 20);
    Random random = new Random(2);
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 40_000; i++) {
      IntWritable key = new IntWritable(i % 5 == 0 ? Integer.MIN_VALUE + i : random.nextInt());
      Text value = new Text(i % 10_000 == 9_999 ? "V".repeat(300_000 + random.nextInt(400_000)) : text(random));
      buffer.collect(key, value, 0);
      expected.add(hex(key) + "/" + hex(value));
    }
    MapOutput output = buffer.finish();
    assertSameRecords(expected, records(output));
    output.release();
  }

  @Test
  void aSubclassOfTextIsWrittenByItsOwnWrite() throws Exception {
    MapOutputBuffer<Text, IntWritable> buffer = buffer(Text.class, IntWritable.class, 1L << 20);
    buffer.collect(new LoudText("quiet"), new IntWritable(7), 0);
    MapOutput output = buffer.finish();
    assertEquals(List.of(hex(new Text("QUIET")) + "/" + hex(new IntWritable(7))), records(output));
    output.release();
  }
}
