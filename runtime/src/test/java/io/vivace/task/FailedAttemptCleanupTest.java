package io.vivace.task;

import static io.vivace.testing.JobFixtures.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.testing.JobFixtures;
import io.vivace.testing.JobFixtures.FinishedJob;
import io.vivace.testing.JobFixtures.FinishedOldApiJob;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task attempt that fails after its user code has written output: the retry must produce the
 * complete output exactly once, and the failed attempt's output writer must be closed as Hadoop's
 * MapTask / ReduceTask close it (in a finally block), so no file handle of the aborted attempt
 * stays open in the long-lived engine.
 */
class FailedAttemptCleanupTest {

  @TempDir
  java.nio.file.Path root;

  private java.nio.file.Path input;
  private Map<String, Integer> counts;

  @BeforeEach
  void writeInput() {
    input = root.resolve("input");
    counts = new TreeMap<>();
    for (int f = 0; f < 2; f++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        String line = "a" + (i % 17) + " b" + (i % 5) + " f" + f;
        lines.add(line);
        for (String w : line.split(" ")) {
          counts.merge(w, 1, Integer::sum);
        }
      }
      JobFixtures.writeInputLines(input.resolve("in" + f), lines);
    }
  }

  private static boolean firstAttemptOfTaskZero(org.apache.hadoop.mapreduce.TaskAttemptID id) {
    return id.getTaskID().getId() == 0 && id.getId() == 0;
  }

  /** Open file descriptors of this JVM that point below the test's folder. */
  private List<String> openFilesBelowRoot() throws IOException {
    java.nio.file.Path fds = java.nio.file.Path.of("/proc/self/fd");
    Assumptions.assumeTrue(Files.isDirectory(fds), "needs /proc/self/fd");
    List<String> open = new ArrayList<>();
    String prefix = root.toRealPath().toString();
    try (Stream<java.nio.file.Path> links = Files.list(fds)) {
      for (java.nio.file.Path link : (Iterable<java.nio.file.Path>) links::iterator) {
        try {
          String target = Files.readSymbolicLink(link).toString();
          if (target.startsWith(prefix) || target.startsWith(root.toString())) {
            open.add(target);
          }
        } catch (IOException e) {
          // closed while listing
        }
      }
    }
    return open;
  }

  private void assertCompleteOutputOnce(List<String> lines) {
    List<String> expected = new ArrayList<>();
    counts.forEach((w, n) -> expected.add(w + "\t" + n));
    List<String> got = new ArrayList<>(lines);
    got.sort(null);
    assertEquals(expected, got);
  }

  // ---- new API ---------------------------------------------------------------------------

  /** Map-only: each word with a 1; the first attempt of map 0 fails after writing output. */
  public static class FailingDirectMapper extends TokenCounterMapper {
    private int records;

    @Override
    public void map(Object key, Text value, Context context) throws IOException, InterruptedException {
      super.map(key, value, context);
      if (++records == 50 && firstAttemptOfTaskZero(context.getTaskAttemptID())) {
        throw new IOException("map attempt fails after writing output");
      }
    }
  }

  /** Sums; the first attempt of reduce 0 fails after writing output. */
  public static class FailingReducer extends IntSumReducer<Text> {
    private int groups;

    @Override
    public void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      super.reduce(key, values, context);
      if (++groups == 5 && firstAttemptOfTaskZero(context.getTaskAttemptID())) {
        throw new IOException("reduce attempt fails after writing output");
      }
    }
  }

  @Test
  void newApiMapOnlyAttemptFailingAfterOutput() throws Exception {
    FinishedJob job = JobFixtures.runNewApiJob(VIVACE, root, input, (conf, in, out) -> {
      Job j = Job.getInstance(conf, "failing map-only attempt");
      j.setMapperClass(FailingDirectMapper.class);
      j.setNumReduceTasks(0);
      j.setOutputKeyClass(Text.class);
      j.setOutputValueClass(IntWritable.class);
      FileInputFormat.addInputPath(j, in);
      FileOutputFormat.setOutputPath(j, out);
      return j;
    });
    assertTrue(job.succeeded());
    assertEquals(1, job.counter(JobCounter.NUM_FAILED_MAPS));
    Map<String, Integer> summed = new TreeMap<>();
    for (String line : job.lines()) {
      String[] kv = line.split("\t");
      summed.merge(kv[0], Integer.parseInt(kv[1]), Integer::sum);
    }
    List<String> lines = new ArrayList<>();
    summed.forEach((w, n) -> lines.add(w + "\t" + n));
    assertCompleteOutputOnce(lines);
    assertEquals(List.of(), openFilesBelowRoot(), "the failed attempt's output file is still open");
  }

  @Test
  void newApiReduceAttemptFailingAfterOutput() throws Exception {
    FinishedJob job = JobFixtures.runNewApiJob(VIVACE, root, input, (conf, in, out) -> {
      Job j = Job.getInstance(conf, "failing reduce attempt");
      j.setMapperClass(TokenCounterMapper.class);
      j.setReducerClass(FailingReducer.class);
      j.setNumReduceTasks(2);
      j.setOutputKeyClass(Text.class);
      j.setOutputValueClass(IntWritable.class);
      FileInputFormat.addInputPath(j, in);
      FileOutputFormat.setOutputPath(j, out);
      return j;
    });
    assertTrue(job.succeeded());
    assertEquals(1, job.counter(JobCounter.NUM_FAILED_REDUCES));
    assertCompleteOutputOnce(job.lines());
    assertEquals(List.of(), openFilesBelowRoot(), "the failed attempt's output file is still open");
  }

  // ---- old API ---------------------------------------------------------------------------

  /** Old-API tokeniser; with {@code fail} set, the first attempt of map 0 fails after output. */
  public static class OldTokenMapper extends MapReduceBase
      implements org.apache.hadoop.mapred.Mapper<LongWritable, Text, Text, IntWritable> {
    private boolean fail;
    private String attempt;
    private int records;

    @Override
    public void configure(JobConf job) {
      fail = job.getBoolean("test.fail.map", false);
      attempt = job.get(MRJobConfig.TASK_ATTEMPT_ID);
    }

    @Override
    public void map(LongWritable key, Text value, OutputCollector<Text, IntWritable> out, Reporter reporter)
        throws IOException {
      for (String w : value.toString().split(" ")) {
        out.collect(new Text(w), new IntWritable(1));
      }
      if (fail && ++records == 50
          && firstAttemptOfTaskZero(org.apache.hadoop.mapred.TaskAttemptID.forName(attempt))) {
        throw new IOException("old-API map attempt fails after writing output");
      }
    }
  }

  /** Old-API summing reducer; the first attempt of reduce 0 fails after output. */
  public static class OldFailingReducer extends MapReduceBase
      implements org.apache.hadoop.mapred.Reducer<Text, IntWritable, Text, IntWritable> {
    private String attempt;
    private int groups;

    @Override
    public void configure(JobConf job) {
      attempt = job.get(MRJobConfig.TASK_ATTEMPT_ID);
    }

    @Override
    public void reduce(Text key, Iterator<IntWritable> values, OutputCollector<Text, IntWritable> out,
                       Reporter reporter) throws IOException {
      int sum = 0;
      while (values.hasNext()) {
        sum += values.next().get();
      }
      out.collect(key, new IntWritable(sum));
      if (++groups == 5 && firstAttemptOfTaskZero(org.apache.hadoop.mapred.TaskAttemptID.forName(attempt))) {
        throw new IOException("old-API reduce attempt fails after writing output");
      }
    }
  }

  private static void oldJob(JobConf conf, Path in, Path out, int reducers) {
    conf.setMapperClass(OldTokenMapper.class);
    conf.setReducerClass(OldFailingReducer.class);
    conf.setBoolean("test.fail.map", reducers == 0);
    conf.setNumReduceTasks(reducers);
    conf.setNumMapTasks(1);
    conf.setOutputKeyClass(Text.class);
    conf.setOutputValueClass(IntWritable.class);
    org.apache.hadoop.mapred.FileInputFormat.setInputPaths(conf, in);
    org.apache.hadoop.mapred.FileOutputFormat.setOutputPath(conf, out);
  }

  @Test
  void oldApiMapOnlyAttemptFailingAfterOutput() throws Exception {
    FinishedOldApiJob job = JobFixtures.runOldApiJob(VIVACE, root, input, (conf, in, out) -> oldJob(conf, in, out, 0));
    assertTrue(job.job().isSuccessful());
    assertEquals(1, job.counter(JobCounter.NUM_FAILED_MAPS));
    Map<String, Integer> summed = new TreeMap<>();
    for (String line : job.lines()) {
      String[] kv = line.split("\t");
      summed.merge(kv[0], Integer.parseInt(kv[1]), Integer::sum);
    }
    List<String> lines = new ArrayList<>();
    summed.forEach((w, n) -> lines.add(w + "\t" + n));
    assertCompleteOutputOnce(lines);
    assertEquals(List.of(), openFilesBelowRoot(), "the failed attempt's output file is still open");
  }

  @Test
  void oldApiReduceAttemptFailingAfterOutput() throws Exception {
    FinishedOldApiJob job = JobFixtures.runOldApiJob(VIVACE, root, input, (conf, in, out) -> oldJob(conf, in, out, 2));
    assertTrue(job.job().isSuccessful());
    assertEquals(1, job.counter(JobCounter.NUM_FAILED_REDUCES));
    assertCompleteOutputOnce(job.lines());
    assertEquals(List.of(), openFilesBelowRoot(), "the failed attempt's output file is still open");
  }
}
