package io.vivace.exec;

import static io.vivace.testing.JobFixtures.LOCAL;
import static io.vivace.testing.JobFixtures.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.testing.JobFixtures;
import io.vivace.testing.JobFixtures.FinishedJob;
import io.vivace.testing.JobFixtures.FinishedOldApiJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.partition.HashPartitioner;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs of unusual shape run through the real {@code Job} / {@code JobClient} API on Vivace, each
 * checked against an expectation computed here and against Apache's LocalJobRunner running the
 * same job: empty splits, no input at all, map-only jobs of both APIs, several reducers.
 */
class EmbeddedJobShapesTest {

  @TempDir
  Path root;

  private static Job wordCount(org.apache.hadoop.conf.Configuration conf, org.apache.hadoop.fs.Path in,
                               org.apache.hadoop.fs.Path out, int reducers) throws Exception {
    Job job = Job.getInstance(conf, "word count");
    job.setMapperClass(TokenCounterMapper.class);
    job.setReducerClass(IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(reducers);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }

  private static Map<String, Integer> countWords(List<String> lines) {
    Map<String, Integer> counts = new TreeMap<>();
    for (String line : lines) {
      for (String w : line.split("\\s+")) {
        if (!w.isEmpty()) {
          counts.merge(w, 1, Integer::sum);
        }
      }
    }
    return counts;
  }

  private static List<String> asLines(Map<String, Integer> counts) {
    List<String> lines = new ArrayList<>();
    counts.forEach((k, v) -> lines.add(k + "\t" + v));
    return lines;
  }

  private static List<String> randomText(long seed, int lines) {
    Random random = new Random(seed);
    List<String> text = new ArrayList<>();
    for (int i = 0; i < lines; i++) {
      StringBuilder line = new StringBuilder();
      int words = random.nextInt(8);
      for (int w = 0; w < words; w++) {
        line.append(w == 0 ? "" : " ").append("w").append(random.nextInt(300));
      }
      text.add(line.toString());
    }
    return text;
  }

  private static void assertSameOutputAndRecordCounters(FinishedJob expected, FinishedJob actual) {
    assertEquals(expected.parts(), actual.parts(), "part files and their contents");
    for (TaskCounter c : new TaskCounter[] {TaskCounter.MAP_INPUT_RECORDS, TaskCounter.MAP_OUTPUT_RECORDS,
        TaskCounter.REDUCE_INPUT_GROUPS, TaskCounter.REDUCE_INPUT_RECORDS, TaskCounter.REDUCE_OUTPUT_RECORDS}) {
      assertEquals(expected.counter(c), actual.counter(c), c.name());
    }
  }

  @Test
  void emptyFilesBecomeEmptySplitsOfTheirOwn() throws Exception {
    Path input = root.resolve("input");
    List<String> text = randomText(1, 200);
    JobFixtures.writeInputLines(input.resolve("words.txt"), text);
    JobFixtures.writeInputText(input.resolve("empty-1.txt"), "");
    JobFixtures.writeInputText(input.resolve("empty-2.txt"), "");

    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, (c, in, out) -> wordCount(c, in, out, 2));
    assertTrue(vivace.succeeded());
    assertEquals(asLines(countWords(text)), sortedLines(vivace.lines()));
    // FileInputFormat gives every empty file a split of its own: one map each
    assertEquals(3, vivace.counter(JobCounter.TOTAL_LAUNCHED_MAPS));
    assertEquals(3, vivace.job().getTaskReports(TaskType.MAP).length);
    assertEquals(text.size(), vivace.counter(TaskCounter.MAP_INPUT_RECORDS));

    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root, input, (c, in, out) -> wordCount(c, in, out, 2));
    assertSameOutputAndRecordCounters(local, vivace);
  }

  @Test
  void onlyEmptyFilesGiveEmptyReduceOutputs() throws Exception {
    Path input = root.resolve("input");
    JobFixtures.writeInputText(input.resolve("a"), "");
    JobFixtures.writeInputText(input.resolve("b"), "");
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, (c, in, out) -> wordCount(c, in, out, 3));
    assertTrue(vivace.succeeded());
    assertEquals(Map.of("part-r-00000", List.of(), "part-r-00001", List.of(), "part-r-00002", List.of()),
        vivace.parts());
    assertEquals(0, vivace.counter(TaskCounter.REDUCE_INPUT_RECORDS));
    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root, input, (c, in, out) -> wordCount(c, in, out, 3));
    assertSameOutputAndRecordCounters(local, vivace);
  }

  @Test
  void noInputFilesAtAllStillRunsTheReducers() throws Exception {
    Path input = Files.createDirectories(root.resolve("input"));
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, (c, in, out) -> wordCount(c, in, out, 2));
    assertTrue(vivace.succeeded());
    assertEquals(0, vivace.counter(JobCounter.TOTAL_LAUNCHED_MAPS));
    assertEquals(Map.of("part-r-00000", List.of(), "part-r-00001", List.of()), vivace.parts());
    assertTrue(Files.exists(vivace.output().resolve("_SUCCESS")));
    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root, input, (c, in, out) -> wordCount(c, in, out, 2));
    assertSameOutputAndRecordCounters(local, vivace);
  }

  @Test
  void noInputFilesAndNoReducersSucceedsWithoutPartFiles() throws Exception {
    Path input = Files.createDirectories(root.resolve("input"));
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, (c, in, out) -> wordCount(c, in, out, 0));
    assertTrue(vivace.succeeded());
    assertEquals(Map.of(), vivace.parts());
    assertTrue(Files.exists(vivace.output().resolve("_SUCCESS")));
    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root, input, (c, in, out) -> wordCount(c, in, out, 0));
    assertEquals(local.parts(), vivace.parts());
  }

  /** Upper-cases each line; map-only. */
  public static class UpperCaseMapper extends Mapper<LongWritable, Text, Text, Text> {
    private final Text out = new Text();

    @Override
    protected void map(LongWritable key, Text value, Context context)
        throws java.io.IOException, InterruptedException {
      out.set(value.toString().toUpperCase());
      context.write(out, new Text(Long.toString(key.get())));
    }
  }

  private static Job upperCaseMapOnly(org.apache.hadoop.conf.Configuration conf, org.apache.hadoop.fs.Path in,
                                      org.apache.hadoop.fs.Path out) throws Exception {
    Job job = Job.getInstance(conf, "map only");
    job.setMapperClass(UpperCaseMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }

  private Path threeInputFiles() {
    Path input = root.resolve("input");
    JobFixtures.writeInputLines(input.resolve("one.txt"), List.of("alpha beta", "gamma"));
    JobFixtures.writeInputLines(input.resolve("two.txt"), randomText(2, 50));
    JobFixtures.writeInputText(input.resolve("three.txt"), "");
    return input;
  }

  @Test
  void mapOnlyNewApiWritesOnePartMFilePerMap() throws Exception {
    Path input = threeInputFiles();
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, this::upperCaseMapOnlyJob);
    assertTrue(vivace.succeeded());
    assertEquals(List.of("part-m-00000", "part-m-00001", "part-m-00002"), List.copyOf(vivace.parts().keySet()));
    List<String> expected = new ArrayList<>();
    for (String f : List.of("one.txt", "two.txt")) {
      long offset = 0;
      for (String line : Files.readAllLines(input.resolve(f))) {
        expected.add(line.toUpperCase() + "\t" + offset);
        offset += line.length() + 1;
      }
    }
    assertEquals(sortedLines(expected), sortedLines(vivace.lines()));
    assertEquals(vivace.counter(TaskCounter.MAP_INPUT_RECORDS), vivace.counter(TaskCounter.MAP_OUTPUT_RECORDS));
    assertEquals(0, vivace.counter(TaskCounter.REDUCE_INPUT_RECORDS));
    assertEquals(0, vivace.counter(JobCounter.TOTAL_LAUNCHED_REDUCES));
    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root, input, this::upperCaseMapOnlyJob);
    assertEquals(local.parts(), vivace.parts(), "same file per split, same contents");
    assertEquals(local.counter(TaskCounter.MAP_OUTPUT_RECORDS), vivace.counter(TaskCounter.MAP_OUTPUT_RECORDS));
  }

  private Job upperCaseMapOnlyJob(org.apache.hadoop.conf.Configuration conf, org.apache.hadoop.fs.Path in,
                                  org.apache.hadoop.fs.Path out) throws Exception {
    return upperCaseMapOnly(conf, in, out);
  }

  /** Old-API map-only mapper: emits each line's length. */
  public static class LineLengthMapper extends MapReduceBase
      implements org.apache.hadoop.mapred.Mapper<LongWritable, Text, Text, IntWritable> {
    @Override
    public void map(LongWritable key, Text value, OutputCollector<Text, IntWritable> out, Reporter reporter)
        throws java.io.IOException {
      out.collect(value, new IntWritable(value.getLength()));
    }
  }

  private static void lineLengthMapOnly(JobConf conf, org.apache.hadoop.fs.Path in, org.apache.hadoop.fs.Path out) {
    conf.setJobName("old api map only");
    conf.setMapperClass(LineLengthMapper.class);
    conf.setNumReduceTasks(0);
    conf.setNumMapTasks(1); // the old FileInputFormat's split-count hint: one split per file
    conf.setOutputKeyClass(Text.class);
    conf.setOutputValueClass(IntWritable.class);
    conf.setInputFormat(org.apache.hadoop.mapred.TextInputFormat.class);
    conf.setOutputFormat(org.apache.hadoop.mapred.TextOutputFormat.class);
    org.apache.hadoop.mapred.FileInputFormat.setInputPaths(conf, in);
    org.apache.hadoop.mapred.FileOutputFormat.setOutputPath(conf, out);
  }

  @Test
  void mapOnlyOldApiWritesOldStylePartFiles() throws Exception {
    Path input = threeInputFiles();
    FinishedOldApiJob vivace = JobFixtures.runOldApiJob(VIVACE, root, input,
        EmbeddedJobShapesTest::lineLengthMapOnly);
    assertTrue(vivace.job().isSuccessful());
    assertEquals(List.of("part-00000", "part-00001", "part-00002"), List.copyOf(vivace.parts().keySet()));
    List<String> expected = new ArrayList<>();
    for (String f : List.of("one.txt", "two.txt")) {
      for (String line : Files.readAllLines(input.resolve(f))) {
        expected.add(line + "\t" + line.length());
      }
    }
    assertEquals(sortedLines(expected), sortedLines(vivace.lines()));
    FinishedOldApiJob local = JobFixtures.runOldApiJob(LOCAL, root, input,
        EmbeddedJobShapesTest::lineLengthMapOnly);
    assertEquals(local.parts(), vivace.parts());
    assertEquals(local.counter(TaskCounter.MAP_OUTPUT_RECORDS), vivace.counter(TaskCounter.MAP_OUTPUT_RECORDS));
  }

  @Test
  void severalReducersEachGetTheirHashPartitionSorted() throws Exception {
    Path input = root.resolve("input");
    List<String> all = new ArrayList<>();
    for (int f = 0; f < 4; f++) {
      List<String> text = randomText(10 + f, 300);
      all.addAll(text);
      JobFixtures.writeInputLines(input.resolve("f" + f), text);
    }
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, (c, in, out) -> wordCount(c, in, out, 5));
    assertTrue(vivace.succeeded());
    assertEquals(5, vivace.parts().size());
    assertEquals(5, vivace.counter(JobCounter.TOTAL_LAUNCHED_REDUCES));
    HashPartitioner<Text, IntWritable> partitioner = new HashPartitioner<>();
    Map<String, Integer> counts = countWords(all);
    for (int r = 0; r < 5; r++) {
      Map<String, Integer> mine = new TreeMap<>();
      for (Map.Entry<String, Integer> e : counts.entrySet()) {
        if (partitioner.getPartition(new Text(e.getKey()), null, 5) == r) {
          mine.put(e.getKey(), e.getValue());
        }
      }
      // TreeMap order equals Text's byte order for these ASCII words
      assertEquals(asLines(mine), vivace.parts().get(String.format("part-r-%05d", r)), "reducer " + r);
    }
    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root, input, (c, in, out) -> wordCount(c, in, out, 5));
    assertSameOutputAndRecordCounters(local, vivace);
  }

  private static List<String> sortedLines(List<String> lines) {
    List<String> sorted = new ArrayList<>(lines);
    sorted.sort(null);
    return sorted;
  }
}
