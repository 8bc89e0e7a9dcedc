package io.vivace.task;

import static io.vivace.testing.JobFixtures.LOCAL;
import static io.vivace.testing.JobFixtures.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.testing.JobFixtures;
import io.vivace.testing.JobFixtures.FinishedJob;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter;
import org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormatCounter;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Counters and configuration seen by user code, through the new API: Hadoop's task counters must
 * agree with Apache's LocalJobRunner on the same job, user counters of every task kind must reach
 * the job's counters, and Configurable user classes must receive the task's job configuration.
 */
class EmbeddedJobCountersTest {

  static final String MARKER = "vivace.test.marker";

  @TempDir
  Path root;

  enum WordStats { LINES, WORDS, REDUCE_CALLS }

  /** Tokenises lines, counting lines, words and characters in user counters. */
  public static class CountingTokenMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    private static final IntWritable ONE = new IntWritable(1);

    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      context.getCounter(WordStats.LINES).increment(1);
      context.getCounter("custom", "chars").increment(line.getLength());
      for (String w : line.toString().split("\\s+")) {
        if (!w.isEmpty()) {
          context.getCounter(WordStats.WORDS).increment(1);
          context.write(new Text(w), ONE);
        }
      }
    }
  }

  /** A summing combiner that counts its reduce calls. */
  public static class CountingSumCombiner extends IntSumReducer<Text> {
    @Override
    public void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      context.getCounter("custom", "combine-calls").increment(1);
      super.reduce(key, values, context);
    }
  }

  /** A summing reducer that counts its calls and long words. */
  public static class CountingSumReducer extends IntSumReducer<Text> {
    @Override
    public void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      context.getCounter(WordStats.REDUCE_CALLS).increment(1);
      if (key.getLength() > 3) {
        context.getCounter("custom", "long-words").increment(1);
      }
      super.reduce(key, values, context);
    }
  }

  private static Job countingWordCount(Configuration conf, org.apache.hadoop.fs.Path in,
                                       org.apache.hadoop.fs.Path out) throws IOException {
    Job job = Job.getInstance(conf, "counting word count");
    job.setMapperClass(CountingTokenMapper.class);
    job.setCombinerClass(CountingSumCombiner.class);
    job.setReducerClass(CountingSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(2);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }

  private List<String> writeInput(Path input) {
    Random random = new Random(11);
    List<String> all = new ArrayList<>();
    for (int f = 0; f < 3; f++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < (f == 2 ? 0 : 400); i++) {
        StringBuilder line = new StringBuilder();
        for (int w = random.nextInt(9); w > 0; w--) {
          line.append("w").append(random.nextInt(f == 0 ? 50 : 5_000)).append(' ');
        }
        lines.add(line.toString());
      }
      all.addAll(lines);
      JobFixtures.writeInputLines(input.resolve("file" + f), lines);
    }
    return all;
  }

  @Test
  void standardCountersAgreeWithLocalJobRunner() throws Exception {
    Path input = root.resolve("input");
    List<String> lines = writeInput(input);
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, EmbeddedJobCountersTest::countingWordCount);
    assertTrue(vivace.succeeded());
    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root, input, EmbeddedJobCountersTest::countingWordCount);
    assertTrue(local.succeeded());
    assertEquals(local.parts(), vivace.parts());

    Enum<?>[] same = {TaskCounter.MAP_INPUT_RECORDS, TaskCounter.MAP_OUTPUT_RECORDS, TaskCounter.MAP_OUTPUT_BYTES,
        TaskCounter.COMBINE_INPUT_RECORDS, TaskCounter.COMBINE_OUTPUT_RECORDS, TaskCounter.REDUCE_INPUT_GROUPS,
        TaskCounter.REDUCE_INPUT_RECORDS, TaskCounter.REDUCE_OUTPUT_RECORDS, TaskCounter.SPLIT_RAW_BYTES,
        TaskCounter.SHUFFLED_MAPS, FileInputFormatCounter.BYTES_READ};
    for (Enum<?> c : same) {
      assertEquals(local.counter(c), vivace.counter(c), c.name());
    }
    // and they have the values the input implies
    Map<String, Integer> counts = new TreeMap<>();
    long words = 0;
    long chars = 0;
    for (String line : lines) {
      chars += line.length();
      for (String w : line.split("\\s+")) {
        if (!w.isEmpty()) {
          counts.merge(w, 1, Integer::sum);
          words++;
        }
      }
    }
    assertEquals(lines.size(), vivace.counter(TaskCounter.MAP_INPUT_RECORDS));
    assertEquals(words, vivace.counter(TaskCounter.MAP_OUTPUT_RECORDS));
    assertEquals(counts.size(), vivace.counter(TaskCounter.REDUCE_INPUT_GROUPS));
    assertEquals(counts.size(), vivace.counter(TaskCounter.REDUCE_OUTPUT_RECORDS));
    assertEquals(3 * 2, vivace.counter(TaskCounter.SHUFFLED_MAPS), "every reducer fetched every map");
    assertEquals(words, vivace.counter(TaskCounter.COMBINE_INPUT_RECORDS), "no spills: combined once per map");
    assertEquals(vivace.counter(TaskCounter.COMBINE_OUTPUT_RECORDS), vivace.counter(TaskCounter.REDUCE_INPUT_RECORDS));

    // user counters: new-API enums and group/name counters from mappers, combiners and reducers
    assertEquals(lines.size(), vivace.counter(WordStats.LINES));
    assertEquals(words, vivace.counter(WordStats.WORDS));
    assertEquals(counts.size(), vivace.counter(WordStats.REDUCE_CALLS));
    assertEquals(chars, vivace.counter("custom", "chars"));
    assertEquals(counts.keySet().stream().filter(w -> w.length() > 3).count(), vivace.counter("custom", "long-words"));
    assertEquals(vivace.counter(TaskCounter.COMBINE_OUTPUT_RECORDS), vivace.counter("custom", "combine-calls"));
    for (String group : List.of(WordStats.class.getName(), "custom")) {
      Map<String, Long> localGroup = values(local.counters().getGroup(group));
      assertEquals(localGroup, values(vivace.counters().getGroup(group)), "user counter group " + group);
    }
  }

  private static Map<String, Long> values(CounterGroup group) {
    Map<String, Long> values = new TreeMap<>();
    for (Counter c : group) {
      values.put(c.getName(), c.getValue());
    }
    return values;
  }

  @Test
  void fileOutputBytesWrittenAgreeWithLocalJobRunner() throws Exception {
    Path input = root.resolve("input");
    writeInput(input);
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, EmbeddedJobCountersTest::countingWordCount);
    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root, input, EmbeddedJobCountersTest::countingWordCount);
    assertEquals(local.parts(), vivace.parts());
    // Hadoop measures the output format's bytes from getRecordWriter() on, so the checksum
    // header the local file system writes when the file is created is counted too.
    assertEquals(local.counter(FileOutputFormatCounter.BYTES_WRITTEN),
        vivace.counter(FileOutputFormatCounter.BYTES_WRITTEN), "BYTES_WRITTEN");
  }

  @Test
  void mergedMapOutputsCountsEveryMapOutputOfEveryReducer() throws Exception {
    Path input = root.resolve("input");
    writeInput(input); // three maps, one of them with no output at all
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, EmbeddedJobCountersTest::countingWordCount);
    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root, input, EmbeddedJobCountersTest::countingWordCount);
    assertEquals(3 * 2, local.counter(TaskCounter.MERGED_MAP_OUTPUTS), "Hadoop: maps x reducers");
    assertEquals(local.counter(TaskCounter.MERGED_MAP_OUTPUTS), vivace.counter(TaskCounter.MERGED_MAP_OUTPUTS),
        "MERGED_MAP_OUTPUTS");
  }

  // ---- Configurable user classes --------------------------------------------------------

  /** setConf() calls seen by {@link ConfAwarePartitioner}: task attempt id -> marker value. */
  static final Map<String, String> PARTITIONER_CONFS = new ConcurrentHashMap<>();

  /** A partitioner that cannot work without the job's configuration. */
  public static class ConfAwarePartitioner extends Partitioner<Text, IntWritable> implements Configurable {
    private Configuration conf;

    @Override
    public void setConf(Configuration conf) {
      this.conf = conf;
      PARTITIONER_CONFS.put(String.valueOf(conf.get(MRJobConfig.TASK_ATTEMPT_ID)), String.valueOf(conf.get(MARKER)));
    }

    @Override
    public Configuration getConf() {
      return conf;
    }

    @Override
    public int getPartition(Text key, IntWritable value, int partitions) {
      if (conf == null || !"job-value".equals(conf.get(MARKER))) {
        throw new IllegalStateException("the partitioner did not get the job configuration");
      }
      return (key.hashCode() & Integer.MAX_VALUE) % partitions;
    }
  }

  /** A mapper reporting, through counters, the configuration its setConf() received. */
  public static class ConfAwareMapper extends TokenCounterMapper implements Configurable {
    private Configuration conf;

    @Override
    public void setConf(Configuration conf) {
      this.conf = conf;
    }

    @Override
    public Configuration getConf() {
      return conf;
    }

    @Override
    protected void setup(Context context) {
      if (conf != null && "job-value".equals(conf.get(MARKER))) {
        context.getCounter("conf", "mapper-has-job-key").increment(1);
      }
      if (conf != null && context.getTaskAttemptID().toString().equals(conf.get(MRJobConfig.TASK_ATTEMPT_ID))) {
        context.getCounter("conf", "mapper-has-task-keys").increment(1);
      }
    }
  }

  /** A reducer checking the job key in its context's configuration. */
  public static class ConfAwareReducer extends IntSumReducer<Text> {
    @Override
    protected void setup(Context context) {
      if ("job-value".equals(context.getConfiguration().get(MARKER))) {
        context.getCounter("conf", "reducer-has-job-key").increment(1);
      }
    }
  }

  private static Job confAwareJob(Configuration conf, org.apache.hadoop.fs.Path in, org.apache.hadoop.fs.Path out)
      throws IOException {
    conf.set(MARKER, "job-value");
    // the partitioners report to the test through a static map: share this class with the tasks
    conf.set("mapreduce.job.classloader.system.classes", EmbeddedJobCountersTest.class.getName());
    Job job = Job.getInstance(conf, "configurable user classes");
    job.setMapperClass(ConfAwareMapper.class);
    job.setPartitionerClass(ConfAwarePartitioner.class);
    job.setReducerClass(ConfAwareReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(3); // with one reducer Hadoop never creates the partitioner
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }

  @Test
  void configurablePartitionerAndMapperReceiveTheTaskConfiguration() throws Exception {
    Path input = root.resolve("input");
    JobFixtures.writeInputLines(input.resolve("one"), List.of("a b c", "d e f g"));
    JobFixtures.writeInputLines(input.resolve("two"), List.of("h i", "j"));
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, EmbeddedJobCountersTest::confAwareJob);
    assertTrue(vivace.succeeded(), "the partitioner throws without the job configuration");
    assertEquals(2, vivace.counter("conf", "mapper-has-job-key"));
    assertEquals(2, vivace.counter("conf", "mapper-has-task-keys"));
    assertEquals(3, vivace.counter("conf", "reducer-has-job-key"));
    String jobId = vivace.job().getJobID().toString().substring("job_".length());
    Map<String, String> seen = new TreeMap<>();
    PARTITIONER_CONFS.forEach((attempt, marker) -> {
      if (attempt.contains(jobId)) {
        seen.put(attempt, marker);
      }
    });
    assertEquals(2, seen.size(), "one partitioner per map attempt, configured with its conf: " + seen);
    seen.forEach((attempt, marker) -> {
      assertTrue(attempt.contains("_m_"), attempt);
      assertEquals("job-value", marker);
    });
    assertEquals(10, vivace.counter(TaskCounter.REDUCE_OUTPUT_RECORDS));

    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root, input, EmbeddedJobCountersTest::confAwareJob);
    assertEquals(values(local.counters().getGroup("conf")), values(vivace.counters().getGroup("conf")));
    assertEquals(local.parts(), vivace.parts());
  }
}
