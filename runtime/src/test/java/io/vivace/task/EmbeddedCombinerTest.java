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
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The combiner in whole jobs: never run without one, run once per map when nothing spills, run on
 * every spill (and on the merge of three or more spills) with a small sort buffer; the result is
 * always the no-combiner result and the COMBINE_* counters always account for every record.
 */
class EmbeddedCombinerTest {

  @TempDir
  Path root;

  /** A summing combiner that counts its runs (one setup per combiner run). */
  public static class RunCountingSumCombiner extends IntSumReducer<Text> {
    @Override
    protected void setup(Context context) {
      context.getCounter("combiner", "runs").increment(1);
    }
  }

  private static Job wordCount(Configuration conf, org.apache.hadoop.fs.Path in, org.apache.hadoop.fs.Path out,
                               boolean combiner, int sortMb) throws IOException {
    conf.setInt(MRJobConfig.IO_SORT_MB, sortMb);
    Job job = Job.getInstance(conf, "combiner word count");
    job.setMapperClass(TokenCounterMapper.class);
    if (combiner) {
      job.setCombinerClass(RunCountingSumCombiner.class);
    }
    job.setReducerClass(IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(1);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }

  private static Map<String, Integer> writeWords(Path file, long seed, int lines, int wordsPerLine, int vocabulary) {
    Random random = new Random(seed);
    Map<String, Integer> counts = new TreeMap<>();
    List<String> text = new ArrayList<>();
    for (int i = 0; i < lines; i++) {
      StringBuilder line = new StringBuilder();
      for (int w = 0; w < wordsPerLine; w++) {
        String word = "w" + random.nextInt(vocabulary);
        counts.merge(word, 1, Integer::sum);
        line.append(word).append(' ');
      }
      text.add(line.toString());
    }
    JobFixtures.writeInputLines(file, text);
    return counts;
  }

  private static List<String> asLines(Map<String, Integer> counts) {
    List<String> lines = new ArrayList<>();
    counts.forEach((w, n) -> lines.add(w + "\t" + n));
    return lines;
  }

  /** Every combine pass turns I records into O: what reaches the reducers is N - sum(I) + sum(O). */
  private static void assertCombineCountersAccountForEveryRecord(FinishedJob job) {
    long mapOut = job.counter(TaskCounter.MAP_OUTPUT_RECORDS);
    long in = job.counter(TaskCounter.COMBINE_INPUT_RECORDS);
    long out = job.counter(TaskCounter.COMBINE_OUTPUT_RECORDS);
    assertTrue(out <= in, "a summing combiner never adds records");
    assertEquals(job.counter(TaskCounter.REDUCE_INPUT_RECORDS), mapOut - in + out,
        "MAP_OUTPUT=" + mapOut + " COMBINE_IN=" + in + " COMBINE_OUT=" + out);
  }

  @Test
  void withoutCombinerNothingIsCombined() throws Exception {
    Path input = root.resolve("input");
    Map<String, Integer> counts = writeWords(input.resolve("words"), 1, 500, 10, 300);
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, (c, in, out) -> wordCount(c, in, out, false, 100));
    assertTrue(vivace.succeeded());
    assertEquals(asLines(counts), vivace.lines());
    assertEquals(0, vivace.counter(TaskCounter.COMBINE_INPUT_RECORDS));
    assertEquals(0, vivace.counter(TaskCounter.COMBINE_OUTPUT_RECORDS));
    assertEquals(0, vivace.counter("combiner", "runs"));
    assertEquals(5_000, vivace.counter(TaskCounter.REDUCE_INPUT_RECORDS));
  }

  @Test
  void combinerRunsOnceWhenTheMapDoesNotSpill() throws Exception {
    Path input = root.resolve("input");
    Map<String, Integer> counts = writeWords(input.resolve("words"), 2, 500, 10, 300);
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, (c, in, out) -> wordCount(c, in, out, true, 100));
    assertTrue(vivace.succeeded());
    assertEquals(asLines(counts), vivace.lines());
    assertEquals(1, vivace.counter("combiner", "runs"), "one map, one partition, no spill");
    assertEquals(5_000, vivace.counter(TaskCounter.COMBINE_INPUT_RECORDS));
    assertEquals(counts.size(), vivace.counter(TaskCounter.COMBINE_OUTPUT_RECORDS));
    assertCombineCountersAccountForEveryRecord(vivace);

    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root, input, (c, in, out) -> wordCount(c, in, out, true, 100));
    assertEquals(local.parts(), vivace.parts());
    for (TaskCounter c : new TaskCounter[] {TaskCounter.COMBINE_INPUT_RECORDS, TaskCounter.COMBINE_OUTPUT_RECORDS,
        TaskCounter.REDUCE_INPUT_RECORDS}) {
      assertEquals(local.counter(c), vivace.counter(c), c.name());
    }
    assertEquals(local.counter("combiner", "runs"), vivace.counter("combiner", "runs"));
  }

  @Test
  void combinerRunsOnEverySpillAndTheResultIsUnchanged() throws Exception {
    Path input = root.resolve("input");
    // 180k records of ~25 bytes with their index: over 4 MB of map output through a 1 MB buffer
    Map<String, Integer> counts = writeWords(input.resolve("words"), 3, 6_000, 30, 2_000);
    FinishedJob plain = JobFixtures.runNewApiJob(VIVACE, root.resolve("plain"), input,
        (c, in, out) -> wordCount(c, in, out, false, 1));
    FinishedJob combined = JobFixtures.runNewApiJob(VIVACE, root.resolve("combined"), input,
        (c, in, out) -> wordCount(c, in, out, true, 1));
    assertTrue(plain.succeeded());
    assertTrue(combined.succeeded());
    assertEquals(asLines(counts), plain.lines());
    assertEquals(plain.parts(), combined.parts(), "the combiner must not change the result");

    long words = 180_000;
    assertEquals(words, combined.counter(TaskCounter.MAP_OUTPUT_RECORDS));
    assertTrue(combined.counter("combiner", "runs") >= 4,
        "one run per spill and one for the merge, got " + combined.counter("combiner", "runs"));
    assertTrue(combined.counter(TaskCounter.COMBINE_INPUT_RECORDS) > words,
        "every record is combined at its spill, and spilled runs again at the merge");
    assertCombineCountersAccountForEveryRecord(combined);
    // three or more spills (mapreduce.map.combine.minspills): the merge combines too, so each word
    // reaches the single reducer once
    assertEquals(counts.size(), combined.counter(TaskCounter.REDUCE_INPUT_RECORDS));
    assertEquals(words, plain.counter(TaskCounter.REDUCE_INPUT_RECORDS));
  }

  @Test
  void combinerWithSeveralMapsAndReducersMatchesLocalJobRunner() throws Exception {
    Path input = root.resolve("input");
    Map<String, Integer> counts = new TreeMap<>();
    for (int f = 0; f < 3; f++) {
      writeWords(input.resolve("words" + f), 10 + f, 300, 8, 150).forEach((w, n) -> counts.merge(w, n, Integer::sum));
    }
    JobFixtures.NewApiJobSpec spec = (c, in, out) -> {
      Job job = wordCount(c, in, out, true, 100);
      job.setNumReduceTasks(2);
      return job;
    };
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, spec);
    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root, input, spec);
    List<String> got = new ArrayList<>(vivace.lines());
    got.sort(null);
    assertEquals(asLines(counts), got);
    assertEquals(local.parts(), vivace.parts());
    assertEquals(6, vivace.counter("combiner", "runs"), "3 maps x 2 partitions, no spills");
    for (TaskCounter c : new TaskCounter[] {TaskCounter.COMBINE_INPUT_RECORDS, TaskCounter.COMBINE_OUTPUT_RECORDS,
        TaskCounter.REDUCE_INPUT_RECORDS, TaskCounter.REDUCE_INPUT_GROUPS}) {
      assertEquals(local.counter(c), vivace.counter(c), c.name());
    }
    assertEquals(local.counter("combiner", "runs"), vivace.counter("combiner", "runs"));
    assertCombineCountersAccountForEveryRecord(vivace);
  }

  // ---- which comparator groups the combiner's input ----------------------------------------

  /** Groups keys "group|member" by their group part only. */
  public static class GroupPartComparator extends WritableComparator {
    public GroupPartComparator() {
      super(Text.class, true);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public int compare(WritableComparable a, WritableComparable b) {
      String x = a.toString();
      String y = b.toString();
      return x.substring(0, x.indexOf('|')).compareTo(y.substring(0, y.indexOf('|')));
    }
  }

  /** Input lines "group member": emits ("group|member", 1). */
  public static class MemberMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      String[] f = line.toString().split(" ");
      context.write(new Text(f[0] + "|" + f[1]), new IntWritable(1));
    }
  }

  /** For each reduce group, lists the distinct full keys seen while iterating, with their sums. */
  public static class MemberListingReducer extends Reducer<Text, IntWritable, Text, Text> {
    @Override
    protected void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      Map<String, Integer> members = new TreeMap<>();
      String group = null;
      for (IntWritable v : values) {
        String k = key.toString(); // the key moves along with the values
        group = k.substring(0, k.indexOf('|'));
        members.merge(k, v.get(), Integer::sum);
      }
      context.write(new Text(group), new Text(members.toString()));
    }
  }

  private static Job memberJob(Configuration conf, org.apache.hadoop.fs.Path in, org.apache.hadoop.fs.Path out,
                               boolean groupCombinerByGroup) throws IOException {
    Job job = Job.getInstance(conf, "combiner grouping");
    job.setMapperClass(MemberMapper.class);
    job.setCombinerClass(IntSumReducer.class);
    job.setReducerClass(MemberListingReducer.class);
    job.setGroupingComparatorClass(GroupPartComparator.class);
    if (groupCombinerByGroup) {
      job.setCombinerKeyGroupingComparatorClass(GroupPartComparator.class);
    }
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(IntWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setNumReduceTasks(1);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }

  private Path memberInput(Map<String, Map<String, Integer>> expected) {
    Path input = root.resolve("input");
    Random random = new Random(17);
    for (int f = 0; f < 2; f++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 2_000; i++) {
        String g = "g" + random.nextInt(10);
        String m = "m" + random.nextInt(20);
        lines.add(g + " " + m);
        expected.computeIfAbsent(g, k -> new TreeMap<>()).merge(g + "|" + m, 1, Integer::sum);
      }
      JobFixtures.writeInputLines(input.resolve("members" + f), lines);
    }
    return input;
  }

  @Test
  void combinerGroupsBySortOrderNotByTheReduceGroupingComparator() throws Exception {
    Map<String, Map<String, Integer>> expected = new TreeMap<>();
    Path input = memberInput(expected);
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, (c, in, out) -> memberJob(c, in, out, false));
    assertTrue(vivace.succeeded());
    List<String> lines = new ArrayList<>();
    expected.forEach((g, members) -> lines.add(g + "\t" + members));
    // the default combiner grouping is the sort comparator: distinct members are never merged
    assertEquals(lines, vivace.lines());
    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root, input, (c, in, out) -> memberJob(c, in, out, false));
    assertEquals(local.parts(), vivace.parts());
  }

  @Test
  void combinerKeyGroupingComparatorIsHonoured() throws Exception {
    Map<String, Map<String, Integer>> expected = new TreeMap<>();
    Path input = memberInput(expected);
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, (c, in, out) -> memberJob(c, in, out, true));
    assertTrue(vivace.succeeded());
    // combined per group: each map hands over one record per group
    assertEquals(2L * expected.size(), vivace.counter(TaskCounter.COMBINE_OUTPUT_RECORDS));
    assertEquals(2L * expected.size(), vivace.counter(TaskCounter.REDUCE_INPUT_RECORDS));
    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root, input, (c, in, out) -> memberJob(c, in, out, true));
    assertEquals(local.parts(), vivace.parts());
    assertEquals(local.counter(TaskCounter.COMBINE_OUTPUT_RECORDS), vivace.counter(TaskCounter.COMBINE_OUTPUT_RECORDS));
  }
}
