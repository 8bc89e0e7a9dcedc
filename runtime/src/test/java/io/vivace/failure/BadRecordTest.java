package io.vivace.failure;

import static io.vivace.failure.FailureSupport.LOCAL;
import static io.vivace.failure.FailureSupport.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records the job cannot serialise or deserialise: a value whose {@code readFields} throws on some
 * records, a value whose bytes do not match what its reader expects, a key that cannot be read back
 * for sorting, and map output of another class than the job declares. Each must fail the job with
 * the cause named and nothing half-committed; LocalJobRunner fails the same jobs.
 */
@Timeout(120)
class BadRecordTest {

  static final int POISON = 13;
  static final AtomicInteger VALUES_READ = new AtomicInteger();

  @TempDir
  File root;

  @BeforeEach
  void reset() {
    VALUES_READ.set(0);
  }

  /** Serialises fine; refuses to deserialise the value {@link #POISON}. */
  public static class PoisonValue implements Writable {
    int value;

    public PoisonValue() {
    }

    PoisonValue(int value) {
      this.value = value;
    }

    @Override
    public void write(DataOutput out) throws IOException {
      out.writeInt(value);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      value = in.readInt();
      if (value == POISON) {
        throw new IOException("PoisonValue cannot deserialise record " + value);
      }
    }
  }

  /** Writes four bytes, reads eight: its serialised records do not match the declared class's reader. */
  public static class MismatchedValue implements Writable {
    long value;

    @Override
    public void write(DataOutput out) throws IOException {
      out.writeInt((int) value);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      value = in.readLong();
    }
  }

  /** A key with no raw comparator: sorting it deserialises it, which fails for {@link #POISON}. */
  public static class PoisonKey implements WritableComparable<PoisonKey> {
    int value;

    @Override
    public void write(DataOutput out) throws IOException {
      out.writeInt(value);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      value = in.readInt();
      if (value == POISON) {
        throw new IOException("PoisonKey cannot deserialise key " + value);
      }
    }

    @Override
    public int compareTo(PoisonKey o) {
      return Integer.compare(value, o.value);
    }

    @Override
    public int hashCode() {
      return value;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof PoisonKey k && k.value == value;
    }

    @Override
    public String toString() {
      return Integer.toString(value);
    }
  }

  /** Emits {@code records} values 0..n-1 under keys a00..a99, and the poison last under key "zzz". */
  public static class PoisonValueMapper extends Mapper<LongWritable, Text, Text, PoisonValue> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      Text key = new Text();
      int records = context.getConfiguration().getInt("test.records", 1000);
      for (int i = 0; i < records; i++) {
        key.set(String.format("a%02d", i % 100));
        context.write(key, new PoisonValue(i == POISON ? POISON + 1 : i));
      }
      if (context.getConfiguration().getBoolean("test.poison", true)) {
        key.set("zzz");
        context.write(key, new PoisonValue(POISON));
      }
    }
  }

  public static class PoisonValueReducer extends Reducer<Text, PoisonValue, Text, IntWritable> {
    @Override
    protected void reduce(Text key, Iterable<PoisonValue> values, Context context)
        throws IOException, InterruptedException {
      int sum = 0;
      for (PoisonValue v : values) {
        VALUES_READ.incrementAndGet();
        sum += v.value;
      }
      context.write(key, new IntWritable(sum));
    }
  }

  public static class MismatchedValueMapper extends Mapper<LongWritable, Text, Text, MismatchedValue> {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      MismatchedValue v = new MismatchedValue();
      v.value = key.get();
      context.write(value, v);
    }
  }

  public static class MismatchedValueReducer extends Reducer<Text, MismatchedValue, Text, LongWritable> {
    @Override
    protected void reduce(Text key, Iterable<MismatchedValue> values, Context context)
        throws IOException, InterruptedException {
      for (MismatchedValue v : values) {
        VALUES_READ.incrementAndGet();
        context.write(key, new LongWritable(v.value));
      }
    }
  }

  public static class PoisonKeyMapper extends Mapper<LongWritable, Text, PoisonKey, IntWritable> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      PoisonKey key = new PoisonKey();
      for (int i = 100; i >= 0; i--) {
        key.value = i;
        context.write(key, new IntWritable(i));
      }
    }
  }

  /** Declares IntWritable map output values but writes Text. */
  public static class WrongTypeMapper extends Mapper<LongWritable, Text, Text, Text> {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      context.write(value, value);
    }
  }

  private Configuration conf(String framework) {
    Configuration conf = FailureSupport.conf(root, framework);
    conf.setInt("mapreduce.map.maxattempts", 2);
    conf.setInt("mapreduce.reduce.maxattempts", 2);
    return conf;
  }

  private interface JobSetup {
    void configure(Job job);
  }

  /**
   * Runs the job on LocalJobRunner and on Vivace; both must fail with nothing committed. Returns the
   * Vivace job's failure info after checking Vivace's attempts and local files.
   */
  private String runBoth(String name, int files, int lines, JobSetup setup, boolean failsInMap) throws Exception {
    File in = FailureSupport.inputFiles(new File(root, "in"), files, lines);
    String info = null;
    for (String framework : new String[] {LOCAL, VIVACE}) {
      Configuration conf = conf(framework);
      File out = new File(root, "out-" + framework);
      Job job = FailureSupport.wordCount(conf, name + "-" + framework, in, out, 1);
      setup.configure(job);
      assertFalse(job.waitForCompletion(false), framework + ": the job must fail");
      assertEquals(JobStatus.State.FAILED, job.getJobState(), framework);
      FailureSupport.assertNothingCommitted(out);
      if (framework.equals(VIVACE)) {
        info = job.getStatus().getFailureInfo();
        List<TaskCompletionEvent> failed =
            FailureSupport.events(job, failsInMap, TaskCompletionEvent.Status.FAILED);
        assertEquals(2, failed.size(), "the failing task was retried: " + failed);
        assertTrue(info.contains(failed.get(1).getTaskAttemptId().toString()), info);
        FailureSupport.assertNoLocalFiles(conf, job.getJobID());
      }
    }
    return info;
  }

  @Test
  void valueThatCannotBeDeserialisedFailsTheReduce() throws Exception {
    String info = runBoth("poison-value", 1, 1, job -> {
      job.setMapperClass(PoisonValueMapper.class);
      job.setReducerClass(PoisonValueReducer.class);
      job.setMapOutputValueClass(PoisonValue.class);
    }, false);
    assertTrue(info.contains("PoisonValue cannot deserialise record 13"), info);
    assertTrue(info.contains("_r_000000"), "names the reduce task: " + info);
  }

  @Test
  void valueThatCannotBeDeserialisedAfterSpillsFailsTheReduce() throws Exception {
    // 150,000 records at io.sort.mb=1: the map spills and merges its output, on raw bytes only
    String info = runBoth("poison-value-spilled", 1, 1, job -> {
      job.getConfiguration().setInt("mapreduce.task.io.sort.mb", 1);
      job.getConfiguration().setInt("test.records", 150_000);
      job.setMapperClass(PoisonValueMapper.class);
      job.setReducerClass(PoisonValueReducer.class);
      job.setMapOutputValueClass(PoisonValue.class);
    }, false);
    assertTrue(info.contains("PoisonValue cannot deserialise record 13"), info);
  }

  @Test
  void valueBytesShorterThanItsReaderExpectsFailWithEof() throws Exception {
    String info = runBoth("mismatched-value", 1, 20, job -> {
      job.setMapperClass(MismatchedValueMapper.class);
      job.setReducerClass(MismatchedValueReducer.class);
      job.setMapOutputValueClass(MismatchedValue.class);
      job.setOutputValueClass(LongWritable.class);
    }, false);
    assertTrue(info.contains("EOFException"), info);
    assertEquals(0, VALUES_READ.get(),
        "a value's reader must not run past the value's bytes into the next record");
  }

  @Test
  void keyThatCannotBeDeserialisedForSortingFailsTheMap() throws Exception {
    String info = runBoth("poison-key", 1, 1, job -> {
      job.setMapperClass(PoisonKeyMapper.class);
      job.setMapOutputKeyClass(PoisonKey.class);
      job.setMapOutputValueClass(IntWritable.class);
    }, true);
    assertTrue(info.contains("PoisonKey cannot deserialise key 13"), info);
    assertTrue(info.contains("_m_000000"), "names the map task: " + info);
  }

  @Test
  void mapOutputOfTheWrongClassFailsWithHadoopsTypeMismatch() throws Exception {
    String info = runBoth("wrong-type", 1, 5, job -> job.setMapperClass(WrongTypeMapper.class), true);
    assertTrue(info.contains("Type mismatch in value from map: expected org.apache.hadoop.io.IntWritable, "
        + "received org.apache.hadoop.io.Text"), info);
  }

  /** A class no serialization in io.serializations takes. */
  public static class NotSerializable {
  }

  @Test
  void aMapOutputClassThatNoSerializationAcceptsFailsNamingItAndTheKey() throws Exception {
    String info = runBoth("no-serializer", 1, 5, job -> {
      job.setMapOutputKeyClass(NotSerializable.class);
      job.setSortComparatorClass(Text.Comparator.class); // else the key's comparator fails first, as on Hadoop
    }, true);
    assertTrue(info.contains("Could not find a serializer for the map output key class '"
        + NotSerializable.class.getName() + "'"), info);
    assertTrue(info.contains("io.serializations"), info);
  }

  /** The fixture itself is sound: the same spilling job without the poison record succeeds. */
  @Test
  void theSameJobWithoutThePoisonSucceeds() throws Exception {
    Configuration conf = conf(VIVACE);
    conf.setInt("mapreduce.task.io.sort.mb", 1);
    conf.setInt("test.records", 150_000);
    conf.setBoolean("test.poison", false);
    File in = FailureSupport.inputFiles(new File(root, "in"), 1, 1);
    File out = new File(root, "out");
    Job job = FailureSupport.wordCount(conf, "no-poison", in, out, 1);
    job.setMapperClass(PoisonValueMapper.class);
    job.setReducerClass(PoisonValueReducer.class);
    job.setMapOutputValueClass(PoisonValue.class);
    assertTrue(job.waitForCompletion(false), () -> FailureSupport.failureInfo(job));
    assertEquals(100, FailureSupport.readOutput(out).size());
    assertTrue(job.getCounters().findCounter(TaskCounter.SPILLED_RECORDS).getValue() > 0, "the map spilled");
  }
}
