package io.vivace.exec;

import static io.vivace.testing.JobFixtures.LOCAL;
import static io.vivace.testing.JobFixtures.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.testing.JobFixtures;
import io.vivace.testing.JobFixtures.FinishedJob;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole jobs on Vivace whose map output does not fit a 1 MB sort buffer: one key group far larger
 * than the buffer, a merge factor of 2 over many spills on every map and in the reducer, single
 * records larger than the buffer, and records of zero-length keys and values.
 */
class EmbeddedJobSpillTest {

  @TempDir
  Path root;

  private static Job newJob(Configuration conf, org.apache.hadoop.fs.Path in, org.apache.hadoop.fs.Path out,
                            String name) throws IOException {
    Job job = Job.getInstance(conf, name);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }

  // ---- one huge key group ---------------------------------------------------------------

  /** Input lines "key n": emits n records (key, 0..n-1). */
  public static class FanOutMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      String[] f = line.toString().split(" ");
      Text key = new Text(f[0]);
      IntWritable value = new IntWritable();
      int n = Integer.parseInt(f[1]);
      for (int i = 0; i < n; i++) {
        value.set(i);
        context.write(key, value);
      }
    }
  }

  /** Emits "count distinct sum" of each group's values. */
  public static class GroupStatsReducer extends Reducer<Text, IntWritable, Text, Text> {
    @Override
    protected void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      long count = 0;
      long sum = 0;
      BitSet seen = new BitSet();
      for (IntWritable v : values) {
        count++;
        sum += v.get();
        seen.set(v.get());
      }
      context.write(key, new Text(count + " " + seen.cardinality() + " " + sum));
    }
  }

  @Test
  void oneKeyGroupFarLargerThanTheSortBuffer() throws Exception {
    Path input = root.resolve("input");
    int hot = 200_000;
    JobFixtures.writeInputLines(input.resolve("keys"), List.of("cold-a 3", "hot " + hot, "cold-b 1"));
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, (conf, in, out) -> {
      conf.setInt(MRJobConfig.IO_SORT_MB, 1);
      Job job = newJob(conf, in, out, "huge group");
      job.setMapperClass(FanOutMapper.class);
      job.setReducerClass(GroupStatsReducer.class);
      job.setMapOutputKeyClass(Text.class);
      job.setMapOutputValueClass(IntWritable.class);
      job.setOutputKeyClass(Text.class);
      job.setOutputValueClass(Text.class);
      return job;
    });
    assertTrue(vivace.succeeded());
    long hotSum = (long) hot * (hot - 1) / 2;
    assertEquals(List.of("cold-a\t3 3 3", "cold-b\t1 1 0", "hot\t" + hot + " " + hot + " " + hotSum),
        vivace.lines());
    long records = hot + 4;
    assertEquals(records, vivace.counter(TaskCounter.MAP_OUTPUT_RECORDS));
    assertEquals(records, vivace.counter(TaskCounter.REDUCE_INPUT_RECORDS));
    assertEquals(3, vivace.counter(TaskCounter.REDUCE_INPUT_GROUPS));
    // a 1 MB buffer cannot hold 200k records: they were spilled and merged
    assertTrue(vivace.counter(TaskCounter.SPILLED_RECORDS) >= 2 * records,
        "SPILLED_RECORDS=" + vivace.counter(TaskCounter.SPILLED_RECORDS));
  }

  // ---- merge factor 2 over many spills ---------------------------------------------------

  /** Input lines "seed count": emits count pseudo-random records generated from seed. */
  public static class GeneratingMapper extends Mapper<LongWritable, Text, Text, Text> {
    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      String[] f = line.toString().split(" ");
      for (String[] kv : generate(Long.parseLong(f[0]), Integer.parseInt(f[1]))) {
        context.write(new Text(kv[0]), new Text(kv[1]));
      }
    }
  }

  static List<String[]> generate(long seed, int count) {
    Random random = new Random(seed);
    List<String[]> records = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      records.add(new String[] {"k" + random.nextInt(30_000),
          "v" + seed + "-" + i + "-" + "x".repeat(100 + random.nextInt(150))});
    }
    return records;
  }

  private static Job factorTwoJob(Configuration conf, org.apache.hadoop.fs.Path in, org.apache.hadoop.fs.Path out)
      throws IOException {
    conf.setInt(MRJobConfig.IO_SORT_MB, 1);
    conf.setInt(MRJobConfig.IO_SORT_FACTOR, 2);
    Job job = newJob(conf, in, out, "sort factor 2");
    job.setMapperClass(GeneratingMapper.class);
    job.setReducerClass(Reducer.class); // identity
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setNumReduceTasks(1);
    return job;
  }

  @Test
  void sortFactorTwoWithManySpillsOnEveryMap() throws Exception {
    Path input = root.resolve("input");
    List<String> expected = new ArrayList<>();
    for (int f = 0; f < 3; f++) {
      long seed = 100 + f;
      JobFixtures.writeInputLines(input.resolve("seed" + f), List.of(seed + " 20000"));
      for (String[] kv : generate(seed, 20_000)) {
        expected.add(kv[0] + "\t" + kv[1]);
      }
    }
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, EmbeddedJobSpillTest::factorTwoJob);
    assertTrue(vivace.succeeded());
    List<String> lines = vivace.lines();
    for (int i = 1; i < lines.size(); i++) {
      String a = lines.get(i - 1);
      String b = lines.get(i);
      assertTrue(a.substring(0, a.indexOf('\t')).compareTo(b.substring(0, b.indexOf('\t'))) <= 0,
          "reduce input out of key order at line " + i);
    }
    List<String> sortedGot = new ArrayList<>(lines);
    sortedGot.sort(null);
    expected.sort(null);
    assertEquals(expected, sortedGot, "every record exactly once");
    assertEquals(expected.size(), vivace.counter(TaskCounter.REDUCE_OUTPUT_RECORDS));
    // each map's ~4 MB of output spilled from a 1 MB buffer several times and was merged two
    // segments at a time, and the reducer merged 3 on-disk map outputs two at a time
    assertTrue(vivace.counter(TaskCounter.SPILLED_RECORDS) > 2L * expected.size(),
        "SPILLED_RECORDS=" + vivace.counter(TaskCounter.SPILLED_RECORDS));
  }

  // ---- record sizes at the edges --------------------------------------------------------

  /** Input lines "key size": emits a value of that many bytes, plus a small record. */
  public static class SizedValueMapper extends Mapper<LongWritable, Text, Text, Text> {
    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      String[] f = line.toString().split(" ");
      int size = Integer.parseInt(f[1]);
      context.write(new Text(f[0]), new Text("v".repeat(size)));
      context.write(new Text(f[0] + "-small"), new Text(Integer.toString(size)));
    }
  }

  /** Emits each value's length under its key. */
  public static class ValueLengthReducer extends Reducer<Text, Text, Text, Text> {
    @Override
    protected void reduce(Text key, Iterable<Text> values, Context context) throws IOException, InterruptedException {
      for (Text v : values) {
        context.write(key, new Text(v.getLength() > 20 ? "len=" + v.getLength() : v.toString()));
      }
    }
  }

  @Test
  void recordsLargerThanTheSortBufferPassThroughAJob() throws Exception {
    Path input = root.resolve("input");
    List<String> lines = List.of("a 10", "big1 1500000", "b 200", "big2 1100000", "c 5");
    JobFixtures.writeInputLines(input.resolve("sizes"), lines);
    JobFixtures.NewApiJobSpec spec = (conf, in, out) -> {
      conf.setInt(MRJobConfig.IO_SORT_MB, 1);
      Job job = newJob(conf, in, out, "large records");
      job.setMapperClass(SizedValueMapper.class);
      job.setReducerClass(ValueLengthReducer.class);
      job.setOutputKeyClass(Text.class);
      job.setOutputValueClass(Text.class);
      job.setNumReduceTasks(2);
      return job;
    };
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, spec);
    assertTrue(vivace.succeeded());
    List<String> expected = new ArrayList<>();
    for (String line : lines) {
      String[] f = line.split(" ");
      int size = Integer.parseInt(f[1]);
      expected.add(f[0] + "\t" + (size > 20 ? "len=" + size : "v".repeat(size)));
      expected.add(f[0] + "-small\t" + size);
    }
    expected.sort(null);
    List<String> got = new ArrayList<>(vivace.lines());
    got.sort(null);
    assertEquals(expected, got);
    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root, input, spec);
    assertEquals(local.parts(), vivace.parts());
  }

  /** Emits zero-length keys and values: NullWritable keys, empty Text values. */
  public static class EmptyRecordMapper extends Mapper<LongWritable, Text, NullWritable, Text> {
    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      context.write(NullWritable.get(), new Text(""));
      context.write(NullWritable.get(), line);
    }
  }

  /** Counts the values of the single NullWritable group and the empty ones among them. */
  public static class EmptyRecordReducer extends Reducer<NullWritable, Text, Text, Text> {
    @Override
    protected void reduce(NullWritable key, Iterable<Text> values, Context context)
        throws IOException, InterruptedException {
      int all = 0;
      int empty = 0;
      for (Text v : values) {
        all++;
        if (v.getLength() == 0) {
          empty++;
        }
      }
      context.write(new Text("values=" + all), new Text("empty=" + empty));
    }
  }

  @Test
  void zeroLengthKeysAndValuesThroughAJob() throws Exception {
    Path input = root.resolve("input");
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      lines.add(i % 10 == 0 ? "" : "l" + i);
    }
    JobFixtures.writeInputLines(input.resolve("lines"), lines);
    JobFixtures.NewApiJobSpec spec = (conf, in, out) -> {
      conf.setInt(MRJobConfig.IO_SORT_MB, 1);
      Job job = newJob(conf, in, out, "empty records");
      job.setMapperClass(EmptyRecordMapper.class);
      job.setReducerClass(EmptyRecordReducer.class);
      job.setMapOutputKeyClass(NullWritable.class);
      job.setMapOutputValueClass(Text.class);
      job.setOutputKeyClass(Text.class);
      job.setOutputValueClass(Text.class);
      job.setNumReduceTasks(3);
      return job;
    };
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, spec);
    assertTrue(vivace.succeeded());
    // NullWritable hashes to 0: one group, all on reducer 0; the other reducers write empty files
    assertEquals(Map.of("part-r-00000", List.of("values=40000\tempty=22000"), "part-r-00001", List.of(),
        "part-r-00002", List.of()), vivace.parts());
    assertEquals(1, vivace.counter(TaskCounter.REDUCE_INPUT_GROUPS));
    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root, input, spec);
    assertEquals(local.parts(), vivace.parts());
  }
}
