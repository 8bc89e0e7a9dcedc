package io.vivace.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.task.BufferedRunContextTest.Trace;
import io.vivace.task.BufferedRunContextTest.Tracing;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapreduce.MarkableIterator;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.ReduceContext;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.counters.GenericCounter;
import org.apache.hadoop.mapreduce.lib.reduce.WrappedReducer;
import org.apache.hadoop.mapreduce.task.ReduceContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.util.Progress;
import org.junit.jupiter.api.Test;

/**
 * The reducer's streaming context against Hadoop's {@link ReduceContextImpl} over the same merged
 * input: the combiner tests' reducers (sum, skip values, drive {@code nextKeyValue}, group distinct
 * keys, mark and reset) and mark/reset corner cases must see the same calls, objects and values,
 * write the same output and count the same groups and records. The input overwrites one buffer per
 * record, as a segment reader does, so the context cannot keep pointers into it.
 */
class StreamingReduceContextTest {

  /**
   * Sorted records served one at a time from one scratch buffer that each {@code next()}
   * overwrites, at an offset, as a merge's segment readers serve them.
   */
  static final class StreamedRecords implements RawKeyValueIterator {
    private final List<Writable[]> records;
    private final DataOutputBuffer scratch = new DataOutputBuffer();
    private final DataInputBuffer key = new DataInputBuffer();
    private final DataInputBuffer value = new DataInputBuffer();
    private int next;

    StreamedRecords(List<Writable[]> records) {
      this.records = records;
    }

    @Override
    public boolean next() throws IOException {
      if (next >= records.size()) {
        return false;
      }
      Writable[] record = records.get(next++);
      scratch.reset();
      scratch.write(new byte[] {7, 7, 7}); // the record does not start at 0
      int keyStart = scratch.getLength();
      record[0].write(scratch);
      int keyEnd = scratch.getLength();
      record[1].write(scratch);
      key.reset(scratch.getData(), keyStart, keyEnd - keyStart);
      value.reset(scratch.getData(), keyEnd, scratch.getLength() - keyEnd);
      return true;
    }

    @Override
    public DataInputBuffer getKey() {
      return key;
    }

    @Override
    public DataInputBuffer getValue() {
      return value;
    }

    @Override
    public Progress getProgress() {
      return new Progress();
    }

    @Override
    public void close() {
    }
  }

  private static final TaskAttemptID ATTEMPT = TaskAttemptID.forName("attempt_1_0001_r_000000_0");

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static <K, V> List<String> trace(boolean hadoops, List<Writable[]> records, Class<K> keyClass,
                                           Class<V> valueClass, RawComparator<K> grouping,
                                           Supplier<Reducer<K, V, K, V>> reducer)
      throws IOException, InterruptedException {
    Configuration conf = PrivateLocalDir.conf();
    Trace trace = new Trace();
    GenericCounter groups = new GenericCounter("groups", "groups");
    GenericCounter inputRecords = new GenericCounter("records", "records");
    RecordWriter<K, V> writer = new RecordWriter<>() {
      @Override
      public void write(K key, V value) {
        trace.events.add("write " + key + "=" + value);
      }

      @Override
      public void close(TaskAttemptContext context) {
      }
    };
    StreamedRecords input = new StreamedRecords(records);
    ReduceContext<K, V, K, V> context = hadoops
        ? new ReduceContextImpl(conf, ATTEMPT, input, groups, inputRecords, writer, null,
            new TaskAttemptContextImpl.DummyReporter(), grouping, keyClass, valueClass)
        : new StreamingReduceContext<>(conf, new AttemptSerializations(conf), ATTEMPT, input, groups, inputRecords, writer, null,
            new TaskAttemptContextImpl.DummyReporter(), grouping, keyClass, valueClass);
    Reducer<K, V, K, V> r = reducer.get();
    if (r instanceof Tracing tracing) {
      tracing.trace = trace;
    }
    r.run(new WrappedReducer<K, V, K, V>().getReducerContext(context));
    trace.events.add("groups " + groups.getValue() + ", input records " + inputRecords.getValue());
    return trace.events;
  }

  private static <K, V> void assertSameAsHadoop(List<Writable[]> records, Class<K> keyClass,
                                                Class<V> valueClass, RawComparator<K> grouping,
                                                Supplier<Reducer<K, V, K, V>> reducer)
      throws IOException, InterruptedException {
    List<String> hadoop = trace(true, records, keyClass, valueClass, grouping, reducer);
    List<String> vivace = trace(false, records, keyClass, valueClass, grouping, reducer);
    assertTrue(hadoop.size() > 20, "the reducer saw the records: " + hadoop.size());
    assertEquals(hadoop, vivace);
  }

  private static List<Writable[]> words(long seed, int count, int vocabulary) {
    return BufferedRunContextTest.words(seed, count, vocabulary);
  }

  @Test
  void summingReducerSeesWhatHadoopsContextGives() throws Exception {
    assertSameAsHadoop(words(1, 3000, 200), Text.class, IntWritable.class,
        BufferedRunContextTest.textOrder(), BufferedRunContextTest.Sum::new);
  }

  @Test
  void valuesLeftUnreadAreSkippedAndCountedAsHadoopCountsThem() throws Exception {
    assertSameAsHadoop(words(2, 2000, 50), Text.class, IntWritable.class,
        BufferedRunContextTest.textOrder(), BufferedRunContextTest.FirstValueOnly::new);
  }

  @Test
  void nextKeyValueReadsEveryRecordAndClearsAtTheEnd() throws Exception {
    assertSameAsHadoop(words(3, 1000, 100), Text.class, IntWritable.class,
        BufferedRunContextTest.textOrder(), BufferedRunContextTest.RecordByRecord::new);
  }

  @Test
  void aGroupingComparatorComparesEachKeyWithTheNextOnTheirBytes() throws Exception {
    assertSameAsHadoop(words(4, 2000, 300), Text.class, IntWritable.class,
        new BufferedRunContextTest.FirstLetter(), BufferedRunContextTest.Sum::new);
  }

  @Test
  void markAndResetReplayTheValuesAsHadoopsBackupStoreDoes() throws Exception {
    assertSameAsHadoop(words(5, 1500, 40), Text.class, IntWritable.class,
        BufferedRunContextTest.textOrder(), BufferedRunContextTest.TwoPasses::new);
  }

  @Test
  void aMarkTakenAfterTheFirstValueReplaysFromTheRecordServedLast() throws Exception {
    assertSameAsHadoop(words(6, 1500, 60), Text.class, IntWritable.class,
        BufferedRunContextTest.textOrder(), BufferedRunContextTest.MarkMidway::new);
  }

  @Test
  void markAndResetCornersBehaveAsHadoopsBackupStore() throws Exception {
    assertSameAsHadoop(words(9, 1500, 40), Text.class, IntWritable.class,
        BufferedRunContextTest.textOrder(), () -> new BufferedRunContextTest.MarkCorners(true));
  }

  @Test
  void aMarkBeforeTheFirstValueReplaysTheWholeGroup() throws Exception {
    assertSameAsHadoop(words(10, 1200, 30), Text.class, IntWritable.class,
        BufferedRunContextTest.textOrder(), BufferedRunContextTest.MarkBeforeFirst::new);
  }

  @Test
  void longWritableKeysAndValuesAreReadInPlace() throws Exception {
    Random random = new Random(7);
    List<Writable[]> records = new ArrayList<>();
    for (long k : random.longs(2000, -50, 50).sorted().toArray()) {
      records.add(new Writable[] {new LongWritable(k), new LongWritable(random.nextLong())});
    }
    assertSameAsHadoop(records, LongWritable.class, LongWritable.class, new LongWritable.Comparator(),
        BufferedRunContextTest.LongSum::new);
  }

  /** Values of another class (the job's deserialiser), marked and replayed. */
  public static class BytesTwice extends Tracing<IntWritable, BytesWritable> {
    @Override
    protected void reduce(IntWritable key, Iterable<BytesWritable> values, Context context)
        throws IOException, InterruptedException {
      MarkableIterator<BytesWritable> it = new MarkableIterator<>(values.iterator());
      it.mark();
      while (it.hasNext()) {
        trace.saw("value", key, it.next());
      }
      it.reset();
      while (it.hasNext()) {
        trace.saw("again", key, it.next());
      }
      context.write(key, new BytesWritable(new byte[] {1}));
    }
  }

  @Test
  void otherClassesGoThroughTheJobsDeserializer() throws Exception {
    Random random = new Random(8);
    List<Writable[]> records = new ArrayList<>();
    for (int k : random.ints(800, 0, 60).sorted().toArray()) {
      byte[] value = new byte[random.nextInt(300)];
      random.nextBytes(value);
      records.add(new Writable[] {new IntWritable(k), new BytesWritable(value)});
    }
    assertSameAsHadoop(records, IntWritable.class, BytesWritable.class, new IntWritable.Comparator(),
        BytesTwice::new);
  }
}
