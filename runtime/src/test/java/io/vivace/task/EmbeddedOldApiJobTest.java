package io.vivace.task;

import static io.vivace.testing.JobFixtures.LOCAL;
import static io.vivace.testing.JobFixtures.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.testing.JobFixtures;
import io.vivace.testing.JobFixtures.FinishedOldApiJob;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.FileInputFormat;
import org.apache.hadoop.mapred.FileOutputFormat;
import org.apache.hadoop.mapred.FileSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.MapRunnable;
import org.apache.hadoop.mapred.Mapper;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.RecordReader;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.TextInputFormat;
import org.apache.hadoop.mapred.TextOutputFormat;
import org.apache.hadoop.mapred.lib.HashPartitioner;
import org.apache.hadoop.mapred.lib.LongSumReducer;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs written against the old {@code mapred} API and run with {@link org.apache.hadoop.mapred.JobClient#runJob}:
 * Mapper/Reducer with OutputCollector and Reporter, a custom MapRunnable, the old text input and
 * output formats, and user counters through {@code Reporter.incrCounter}.
 */
class EmbeddedOldApiJobTest {

  @TempDir
  java.nio.file.Path root;

  enum OldStats { LINES, WORDS }

  /** Old-API tokenising mapper with Reporter counters; configure() sees the task's input file. */
  public static class OldWordMapper extends MapReduceBase implements Mapper<LongWritable, Text, Text, IntWritable> {
    private static final IntWritable ONE = new IntWritable(1);
    private String inputFile;

    @Override
    public void configure(JobConf job) {
      inputFile = job.get(MRJobConfig.MAP_INPUT_FILE);
    }

    @Override
    public void map(LongWritable offset, Text line, OutputCollector<Text, IntWritable> out, Reporter reporter)
        throws IOException {
      reporter.incrCounter(OldStats.LINES, 1);
      reporter.incrCounter("old-api", "chars", line.getLength());
      reporter.incrCounter("input-files", inputFile == null ? "unknown" : new Path(inputFile).getName(), 1);
      reporter.setStatus("mapping " + offset);
      reporter.progress();
      for (String w : line.toString().split("\\s+")) {
        if (!w.isEmpty()) {
          reporter.incrCounter(OldStats.WORDS, 1);
          out.collect(new Text(w), ONE);
        }
      }
    }
  }

  /** Old-API summing reducer, counting its calls under a name of the subclass' choosing. */
  public static class OldSumReducer extends MapReduceBase implements Reducer<Text, IntWritable, Text, IntWritable> {
    protected String callCounter() {
      return "reduce-calls";
    }

    @Override
    public void reduce(Text key, Iterator<IntWritable> values, OutputCollector<Text, IntWritable> out,
                       Reporter reporter) throws IOException {
      reporter.incrCounter("old-api", callCounter(), 1);
      int sum = 0;
      while (values.hasNext()) {
        sum += values.next().get();
      }
      out.collect(key, new IntWritable(sum));
    }
  }

  /** The same reducer used as a combiner. */
  public static class OldSumCombiner extends OldSumReducer {
    @Override
    protected String callCounter() {
      return "combine-calls";
    }
  }

  private static void oldWordCount(JobConf conf, Path in, Path out) {
    conf.setJobName("old api word count");
    conf.setMapperClass(OldWordMapper.class);
    conf.setCombinerClass(OldSumCombiner.class);
    conf.setReducerClass(OldSumReducer.class);
    conf.setInputFormat(TextInputFormat.class);
    conf.setOutputFormat(TextOutputFormat.class);
    conf.setOutputKeyClass(Text.class);
    conf.setOutputValueClass(IntWritable.class);
    conf.setNumReduceTasks(2);
    conf.setNumMapTasks(1); // hint to the old FileInputFormat: one split per file
    FileInputFormat.setInputPaths(conf, in);
    FileOutputFormat.setOutputPath(conf, out);
  }

  private Map<String, List<String>> writeInput(java.nio.file.Path input) {
    Random random = new Random(21);
    Map<String, List<String>> files = new TreeMap<>();
    for (int f = 0; f < 3; f++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 150 * (f + 1); i++) {
        StringBuilder line = new StringBuilder();
        for (int w = random.nextInt(7); w > 0; w--) {
          line.append(w == 3 ? "  " : " ").append("t").append(random.nextInt(400));
        }
        lines.add(line.toString());
      }
      files.put("in" + f + ".txt", lines);
      JobFixtures.writeInputLines(input.resolve("in" + f + ".txt"), lines);
    }
    return files;
  }

  @Test
  void oldApiMapperCombinerReducerWithReporterCounters() throws Exception {
    java.nio.file.Path input = root.resolve("input");
    Map<String, List<String>> files = writeInput(input);
    FinishedOldApiJob vivace = JobFixtures.runOldApiJob(VIVACE, root, input, EmbeddedOldApiJobTest::oldWordCount);
    assertTrue(vivace.job().isSuccessful());

    Map<String, Integer> counts = new TreeMap<>();
    long lines = 0;
    long words = 0;
    long chars = 0;
    for (List<String> text : files.values()) {
      for (String line : text) {
        lines++;
        chars += line.length();
        for (String w : line.split("\\s+")) {
          if (!w.isEmpty()) {
            words++;
            counts.merge(w, 1, Integer::sum);
          }
        }
      }
    }
    assertEquals(List.of("part-00000", "part-00001"), List.copyOf(vivace.parts().keySet()));
    HashPartitioner<Text, IntWritable> partitioner = new HashPartitioner<>();
    for (int r = 0; r < 2; r++) {
      List<String> expected = new ArrayList<>();
      for (Map.Entry<String, Integer> e : counts.entrySet()) {
        if (partitioner.getPartition(new Text(e.getKey()), null, 2) == r) {
          expected.add(e.getKey() + "\t" + e.getValue());
        }
      }
      assertEquals(expected, vivace.parts().get("part-0000" + r), "reducer " + r);
    }
    assertEquals(lines, vivace.counter(OldStats.LINES));
    assertEquals(words, vivace.counter(OldStats.WORDS));
    assertEquals(chars, vivace.counter("old-api", "chars"));
    assertEquals(counts.size(), vivace.counter("old-api", "reduce-calls"));
    assertEquals(vivace.counter(TaskCounter.COMBINE_OUTPUT_RECORDS), vivace.counter("old-api", "combine-calls"));
    for (Map.Entry<String, List<String>> f : files.entrySet()) {
      assertEquals(f.getValue().size(), vivace.counter("input-files", f.getKey()),
          "mapreduce.map.input.file of the maps reading " + f.getKey());
    }
    assertEquals(lines, vivace.counter(TaskCounter.MAP_INPUT_RECORDS));
    assertEquals(words, vivace.counter(TaskCounter.MAP_OUTPUT_RECORDS));
    assertEquals(counts.size(), vivace.counter(TaskCounter.REDUCE_INPUT_GROUPS));

    FinishedOldApiJob local = JobFixtures.runOldApiJob(LOCAL, root, input, EmbeddedOldApiJobTest::oldWordCount);
    assertEquals(local.parts(), vivace.parts());
    for (TaskCounter c : new TaskCounter[] {TaskCounter.MAP_INPUT_RECORDS, TaskCounter.MAP_OUTPUT_RECORDS,
        TaskCounter.COMBINE_INPUT_RECORDS, TaskCounter.COMBINE_OUTPUT_RECORDS, TaskCounter.REDUCE_INPUT_GROUPS,
        TaskCounter.REDUCE_INPUT_RECORDS, TaskCounter.REDUCE_OUTPUT_RECORDS}) {
      assertEquals(local.counter(c), vivace.counter(c), c.name());
    }
    for (String group : List.of(OldStats.class.getName(), "old-api", "input-files")) {
      assertEquals(groupValues(local.counters(), group), groupValues(vivace.counters(), group), group);
    }
  }

  private static Map<String, Long> groupValues(org.apache.hadoop.mapred.Counters counters, String group) {
    Map<String, Long> values = new TreeMap<>();
    for (org.apache.hadoop.mapred.Counters.Counter c : counters.getGroup(group)) {
      values.put(c.getName(), c.getValue());
    }
    return values;
  }

  /** A custom MapRunnable: drives the record reader itself, emitting per-file line lengths. */
  public static class LineLengthRunner implements MapRunnable<LongWritable, Text, Text, LongWritable> {
    private JobConf job;

    @Override
    public void configure(JobConf job) {
      this.job = job;
    }

    @Override
    public void run(RecordReader<LongWritable, Text> input, OutputCollector<Text, LongWritable> output,
                    Reporter reporter) throws IOException {
      reporter.incrCounter("runner", "runs", 1);
      String file = new Path(job.get(MRJobConfig.MAP_INPUT_FILE)).getName();
      if (reporter.getInputSplit() instanceof FileSplit split && split.getPath().getName().equals(file)) {
        reporter.incrCounter("runner", "split-is-input-file", 1);
      }
      LongWritable key = input.createKey();
      Text value = input.createValue();
      Text fileKey = new Text(file);
      Text linesKey = new Text("~lines");
      LongWritable one = new LongWritable(1);
      while (input.next(key, value)) {
        reporter.incrCounter("runner", "records", 1);
        output.collect(fileKey, new LongWritable(value.getLength()));
        output.collect(linesKey, one);
      }
    }
  }

  private static void customRunnerJob(JobConf conf, Path in, Path out) {
    conf.setJobName("custom map runnable");
    conf.setMapRunnerClass(LineLengthRunner.class);
    conf.setReducerClass(LongSumReducer.class);
    conf.setOutputKeyClass(Text.class);
    conf.setOutputValueClass(LongWritable.class);
    conf.setNumReduceTasks(1);
    conf.setNumMapTasks(1);
    FileInputFormat.setInputPaths(conf, in);
    FileOutputFormat.setOutputPath(conf, out);
  }

  @Test
  void customMapRunnableDrivesTheRecordReader() throws Exception {
    java.nio.file.Path input = root.resolve("input");
    Map<String, List<String>> files = writeInput(input);
    FinishedOldApiJob vivace = JobFixtures.runOldApiJob(VIVACE, root, input, EmbeddedOldApiJobTest::customRunnerJob);
    assertTrue(vivace.job().isSuccessful());
    List<String> expected = new ArrayList<>();
    long lines = 0;
    for (Map.Entry<String, List<String>> f : files.entrySet()) {
      expected.add(f.getKey() + "\t" + f.getValue().stream().mapToLong(String::length).sum());
      lines += f.getValue().size();
    }
    expected.add("~lines\t" + lines);
    assertEquals(Map.of("part-00000", expected), vivace.parts());
    assertEquals(files.size(), vivace.counter("runner", "runs"), "one MapRunnable run per split");
    assertEquals(files.size(), vivace.counter("runner", "split-is-input-file"));
    assertEquals(lines, vivace.counter("runner", "records"));
    assertEquals(lines, vivace.counter(TaskCounter.MAP_INPUT_RECORDS));
    assertEquals(2 * lines, vivace.counter(TaskCounter.MAP_OUTPUT_RECORDS));

    FinishedOldApiJob local = JobFixtures.runOldApiJob(LOCAL, root, input, EmbeddedOldApiJobTest::customRunnerJob);
    assertEquals(local.parts(), vivace.parts());
    assertEquals(groupValues(local.counters(), "runner"), groupValues(vivace.counters(), "runner"));
  }
}
