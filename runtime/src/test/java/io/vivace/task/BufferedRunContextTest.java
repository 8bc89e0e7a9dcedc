package io.vivace.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.sort.BufferedRun;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
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
import org.apache.hadoop.io.WritableComparator;
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
 * The combiner's in-place reduce context against Hadoop's {@link ReduceContextImpl} over the same
 * sorted records: reducers that sum, skip values, drive {@code nextKeyValue} themselves, hold on to
 * the key object, group distinct keys with their own comparator, and mark and reset the values
 * with {@link MarkableIterator} must see the same calls, objects and values, write the same output
 * and count the same input records.
 */
class BufferedRunContextTest {

  /** Sorted serialised records in one array, as a sort buffer's run: a BufferedRun. */
  private static final class Records implements BufferedRun {
    final byte[] data;
    final int[] keyStart;
    final int[] keyEnd;
    final int[] valueEnd;
    private int next;
    private final DataInputBuffer key = new DataInputBuffer();
    private final DataInputBuffer value = new DataInputBuffer();

    Records(List<Writable[]> records) throws IOException {
      DataOutputBuffer out = new DataOutputBuffer();
      int n = records.size();
      keyStart = new int[n];
      keyEnd = new int[n];
      valueEnd = new int[n];
      for (int i = 0; i < n; i++) {
        keyStart[i] = out.getLength();
        records.get(i)[0].write(out);
        keyEnd[i] = out.getLength();
        records.get(i)[1].write(out);
        valueEnd[i] = out.getLength();
      }
      // exactly the records' bytes: the last key and value end at the array's end
      data = Arrays.copyOf(out.getData(), out.getLength());
    }

    @Override
    public int from() {
      return 0;
    }

    @Override
    public int to() {
      return keyStart.length;
    }

    @Override
    public byte[] data() {
      return data;
    }

    @Override
    public int keyStart(int position) {
      return keyStart[position];
    }

    @Override
    public int keyEnd(int position) {
      return keyEnd[position];
    }

    @Override
    public int valueEnd(int position) {
      return valueEnd[position];
    }

    @Override
    public boolean keyRepeats(int position) {
      return position > 0 && Arrays.equals(data, keyStart[position - 1], keyEnd[position - 1],
          data, keyStart[position], keyEnd[position]);
    }

    @Override
    public boolean currentKeyRepeats(byte[] bytes, int offset) {
      return false;
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
    public boolean next() {
      if (next >= keyStart.length) {
        return false;
      }
      key.reset(data, keyStart[next], keyEnd[next] - keyStart[next]);
      value.reset(data, keyEnd[next], valueEnd[next] - keyEnd[next]);
      next++;
      return true;
    }

    @Override
    public void close() {
    }

    @Override
    public Progress getProgress() {
      return new Progress();
    }
  }

  /** What a reducer saw and wrote, in order. */
  static final class Trace {
    final List<String> events = new ArrayList<>();
    Object firstKey;
    Object firstValue;

    /** Notes the objects' contents and whether they are the objects first seen. */
    void saw(String what, Object key, Object value) {
      if (firstKey == null) {
        firstKey = key;
        firstValue = value;
      }
      events.add(what + " " + key + "=" + value + " sameKeyObject=" + (key == firstKey)
          + " sameValueObject=" + (value == firstValue));
    }
  }

  private static final TaskAttemptID ATTEMPT = TaskAttemptID.forName("attempt_1_0001_m_000000_0");

  /** Runs {@code reducer} over {@code run}'s records in the given context kind; returns the trace. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static <K, V> List<String> trace(boolean hadoops, List<Writable[]> records,
                                           Class<K> keyClass, Class<V> valueClass,
                                           RawComparator<K> grouping,
                                           Supplier<Reducer<K, V, K, V>> reducer)
      throws IOException, InterruptedException {
    Configuration conf = PrivateLocalDir.conf();
    Trace trace = new Trace();
    GenericCounter inputRecords = new GenericCounter("combine input", "combine input");
    RecordWriter<K, V> writer = new RecordWriter<>() {
      @Override
      public void write(K key, V value) {
        trace.events.add("write " + key + "=" + value);
      }

      @Override
      public void close(TaskAttemptContext context) {
      }
    };
    Records run = new Records(records);
    ReduceContext<K, V, K, V> context = hadoops
        ? new ReduceContextImpl(conf, ATTEMPT, run, null, inputRecords, writer, null,
            new TaskAttemptContextImpl.DummyReporter(), grouping, keyClass, valueClass)
        : new BufferedRunContext<>(conf, ATTEMPT, run, inputRecords, writer,
            new TaskAttemptContextImpl.DummyReporter(), grouping,
            FieldReader.of(new AttemptSerializations(conf), keyClass, "map output key"),
            FieldReader.of(new AttemptSerializations(conf), valueClass, "map output value"));
    Reducer<K, V, K, V> r = reducer.get();
    if (r instanceof Tracing tracing) {
      tracing.trace = trace;
    }
    r.run(new WrappedReducer<K, V, K, V>().getReducerContext(context));
    trace.events.add("input records " + inputRecords.getValue());
    return trace.events;
  }

  /** A reducer given the trace it writes what it sees to. */
  abstract static class Tracing<K, V> extends Reducer<K, V, K, V> {
    Trace trace;
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

  /** Sorted word counts: words of 1 to 20 letters (Text keys of up to 8 bytes and longer). */
  static List<Writable[]> words(long seed, int count, int vocabulary) {
    Random random = new Random(seed);
    List<String> words = new ArrayList<>();
    for (int i = 0; i < vocabulary; i++) {
      StringBuilder word = new StringBuilder();
      for (int n = 1 + random.nextInt(20); n > 0; n--) {
        word.append((char) ('a' + random.nextInt(3)));
      }
      words.add(word.toString());
    }
    List<String> picked = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      picked.add(words.get(random.nextInt(vocabulary)));
    }
    picked.sort(null);
    List<Writable[]> records = new ArrayList<>();
    for (int i = 0; i < picked.size(); i++) {
      records.add(new Writable[] {new Text(picked.get(i)), new IntWritable(i % 7)});
    }
    return records;
  }

  static RawComparator<Text> textOrder() {
    return new Text.Comparator();
  }

  public static class Sum extends Tracing<Text, IntWritable> {
    @Override
    protected void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      int sum = 0;
      for (IntWritable v : values) {
        trace.saw("value", key, v);
        sum += v.get();
      }
      context.write(key, new IntWritable(sum));
    }
  }

  @Test
  void summingCombinerSeesWhatHadoopsContextGives() throws Exception {
    assertSameAsHadoop(words(1, 3000, 200), Text.class, IntWritable.class, textOrder(), Sum::new);
  }

  public static class FirstValueOnly extends Tracing<Text, IntWritable> {
    @Override
    protected void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      Iterator<IntWritable> it = values.iterator();
      trace.saw("first", key, it.next());
      context.write(key, context.getCurrentValue());
    }
  }

  @Test
  void valuesLeftUnreadAreSkippedAsHadoopSkipsThem() throws Exception {
    assertSameAsHadoop(words(2, 2000, 50), Text.class, IntWritable.class, textOrder(), FirstValueOnly::new);
  }

  /** Drives the context record by record, as a reducer overriding run() may. */
  public static class RecordByRecord extends Tracing<Text, IntWritable> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      while (context.nextKeyValue()) {
        trace.saw("record", context.getCurrentKey(), context.getCurrentValue());
      }
      trace.events.add("after the end: " + context.getCurrentKey() + " " + context.getCurrentValue());
    }
  }

  @Test
  void nextKeyValueReadsEveryRecordAndClearsAtTheEnd() throws Exception {
    assertSameAsHadoop(words(3, 1000, 100), Text.class, IntWritable.class, textOrder(), RecordByRecord::new);
  }

  /** Groups keys by their first letter: distinct key bytes in one group, the key changing within. */
  static final class FirstLetter extends WritableComparator {
    FirstLetter() {
      super(Text.class);
    }

    @Override
    public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
      int n1 = org.apache.hadoop.io.WritableUtils.decodeVIntSize(b1[s1]);
      int n2 = org.apache.hadoop.io.WritableUtils.decodeVIntSize(b2[s2]);
      return Integer.compare(l1 > n1 ? b1[s1 + n1] : -1, l2 > n2 ? b2[s2 + n2] : -1);
    }
  }

  @Test
  void aGroupingComparatorGroupsDistinctKeysAndTheKeyFollowsEachValue() throws Exception {
    assertSameAsHadoop(words(4, 2000, 300), Text.class, IntWritable.class, new FirstLetter(), Sum::new);
  }

  /** Reads each group's values twice and a tail once more, with Hadoop's MarkableIterator. */
  public static class TwoPasses extends Tracing<Text, IntWritable> {
    @Override
    protected void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      MarkableIterator<IntWritable> it = new MarkableIterator<>(values.iterator());
      it.mark();
      int n = 0;
      while (it.hasNext()) {
        trace.saw("pass 1", key, it.next());
        if (++n == 2) {
          it.clearMark();
          it.mark();
        }
      }
      it.reset();
      while (it.hasNext()) {
        trace.saw("pass 2", key, it.next());
      }
      if (n > 3) {
        it.reset();
        trace.saw("pass 3", key, it.next());
        it.mark();
        trace.saw("pass 3", key, it.next());
        it.reset();
        while (it.hasNext()) {
          trace.saw("pass 4", key, it.next());
        }
      }
      context.write(key, new IntWritable(n));
    }
  }

  @Test
  void markAndResetReplayTheValuesAsHadoopsBackupStoreDoes() throws Exception {
    assertSameAsHadoop(words(5, 1500, 40), Text.class, IntWritable.class, textOrder(), TwoPasses::new);
  }

  /** A mark taken mid-group, read on past it, then reset before the group ends. */
  public static class MarkMidway extends Tracing<Text, IntWritable> {
    @Override
    protected void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      MarkableIterator<IntWritable> it = new MarkableIterator<>(values.iterator());
      trace.saw("first", key, it.next());
      if (it.hasNext()) {
        it.mark();
        trace.saw("after mark", key, it.next());
        it.reset();
        while (it.hasNext()) {
          trace.saw("after reset", key, it.next());
        }
      }
    }
  }

  @Test
  void aMarkTakenAfterTheFirstValueReplaysFromTheRecordServedLast() throws Exception {
    assertSameAsHadoop(words(6, 1500, 60), Text.class, IntWritable.class, textOrder(), MarkMidway::new);
  }

  /**
   * Mark and reset's corners: a clearMark during a reset (the mark ends with the reset; a reset
   * before that is refused), a mark inside a reset, a reset with no mark, and where asked a mark
   * after the value object was changed (Hadoop stores the object as it is then; a combiner's
   * context replays the record as it was read).
   */
  public static class MarkCorners extends Tracing<Text, IntWritable> {
    private final boolean changeValueBeforeMark;
    private int group;

    MarkCorners(boolean changeValueBeforeMark) {
      this.changeValueBeforeMark = changeValueBeforeMark;
    }

    @Override
    protected void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      MarkableIterator<IntWritable> it = new MarkableIterator<>(values.iterator());
      int g = group++;
      if (g % 3 == 0) {
        tryReset(key, it);
      }
      IntWritable first = it.next();
      if (changeValueBeforeMark) {
        first.set(first.get() + 1000);
      }
      it.mark();
      int n = 0;
      while (it.hasNext() && n++ < 3) {
        trace.saw("read", key, it.next());
      }
      it.reset();
      if (g % 2 == 0) {
        trace.saw("replay", key, it.next());
        it.clearMark();
        tryReset(key, it);
        tryReset(key, it);
      } else if (it.hasNext()) {
        trace.saw("replay", key, it.next());
        it.mark();
        while (it.hasNext()) {
          trace.saw("to the end", key, it.next());
        }
        it.reset();
      }
      while (it.hasNext()) {
        trace.saw("rest", key, it.next());
      }
      tryReset(key, it);
      while (it.hasNext()) {
        trace.saw("after last reset", key, it.next());
      }
    }

    private void tryReset(Text key, MarkableIterator<IntWritable> it) {
      try {
        it.reset();
        trace.events.add("reset " + key);
      } catch (IOException e) {
        trace.events.add("reset refused " + key + ": " + e.getMessage());
      }
    }
  }

  /** Marks before the first value of a key is read, then reads on and resets. */
  public static class MarkBeforeFirst extends Tracing<Text, IntWritable> {
    @Override
    protected void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      MarkableIterator<IntWritable> it = new MarkableIterator<>(values.iterator());
      it.mark();
      while (it.hasNext()) {
        trace.saw("pass 1", key, it.next());
      }
      it.reset();
      while (it.hasNext()) {
        trace.saw("pass 2", key, it.next());
      }
    }
  }

  @Test
  void markAndResetCornersBehaveAsHadoopsBackupStore() throws Exception {
    assertSameAsHadoop(words(9, 1500, 40), Text.class, IntWritable.class, textOrder(),
        () -> new MarkCorners(false));
  }

  @Test
  void aMarkBeforeTheFirstValueReplaysTheWholeGroup() throws Exception {
    assertSameAsHadoop(words(10, 1200, 30), Text.class, IntWritable.class, textOrder(), MarkBeforeFirst::new);
  }

  public static class LongSum extends Tracing<LongWritable, LongWritable> {
    @Override
    protected void reduce(LongWritable key, Iterable<LongWritable> values, Context context)
        throws IOException, InterruptedException {
      long sum = 0;
      for (LongWritable v : values) {
        trace.saw("value", key, v);
        sum += v.get();
      }
      context.write(key, new LongWritable(sum));
    }
  }

  @Test
  void longWritableKeysAndValuesAreReadInPlace() throws Exception {
    Random random = new Random(7);
    List<Writable[]> records = new ArrayList<>();
    long[] keys = random.longs(2000, -50, 50).sorted().toArray();
    for (long k : keys) {
      records.add(new Writable[] {new LongWritable(k), new LongWritable(random.nextLong())});
    }
    assertSameAsHadoop(records, LongWritable.class, LongWritable.class,
        new LongWritable.Comparator(), LongSum::new);
  }

  public static class BytesConcat extends Tracing<BytesWritable, BytesWritable> {
    @Override
    protected void reduce(BytesWritable key, Iterable<BytesWritable> values, Context context)
        throws IOException, InterruptedException {
      for (BytesWritable v : values) {
        trace.saw("value", key, v);
      }
      context.write(key, key);
    }
  }

  @Test
  void otherClassesGoThroughTheJobsDeserializer() throws Exception {
    Random random = new Random(8);
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 800; i++) {
      keys.add(new byte[] {(byte) random.nextInt(20), (byte) random.nextInt(2)});
    }
    BytesWritable.Comparator order = new BytesWritable.Comparator();
    List<Writable[]> records = new ArrayList<>();
    for (byte[] k : keys) {
      byte[] value = new byte[random.nextInt(5)];
      random.nextBytes(value);
      records.add(new Writable[] {new BytesWritable(k), new BytesWritable(value)});
    }
    records.sort((a, b) -> {
      try {
        DataOutputBuffer x = new DataOutputBuffer();
        a[0].write(x);
        int xl = x.getLength();
        b[0].write(x);
        return order.compare(x.getData(), 0, xl, x.getData(), xl, x.getLength() - xl);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    });
    assertSameAsHadoop(records, BytesWritable.class, BytesWritable.class, order, BytesConcat::new);
  }
}
