package io.vivace.exec;

import static io.vivace.testing.JobFixtures.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vivace.testing.JobFixtures;
import io.vivace.testing.JobFixtures.FinishedJob;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The job history file {@code <vivace.history.dir>/<job id>.jsonl}: JOB_SUBMITTED first, one
 * TASK_ATTEMPT_STARTED / TASK_ATTEMPT_FINISHED pair per attempt (failed ones included), and
 * JOB_FINISHED last with the job's final status and exactly the counters the client sees. Failed
 * attempts must not leave output or counters behind, and every job removes its directories.
 */
class JobHistoryFileTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path root;

  private List<JsonNode> history(FinishedJob job) throws IOException {
    Path file = JobFixtures.historyDir(root.resolve(VIVACE)).resolve(job.job().getJobID() + ".jsonl");
    assertTrue(Files.isRegularFile(file), "history file " + file + " exists once the job is complete");
    List<JsonNode> events = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      events.add(JSON.readTree(line));
    }
    return events;
  }

  /** One attempt's STARTED and FINISHED events. */
  record AttemptEvents(JsonNode started, JsonNode finished, int startedAt, int finishedAt) {
  }

  /** Attempts by id; asserts exactly one STARTED and one FINISHED each, in that order. */
  private static Map<String, AttemptEvents> attempts(List<JsonNode> events) {
    Map<String, Integer> startedAt = new LinkedHashMap<>();
    Map<String, Integer> finishedAt = new LinkedHashMap<>();
    for (int i = 0; i < events.size(); i++) {
      JsonNode e = events.get(i);
      String type = e.path("event").asText();
      if (type.startsWith("TASK_ATTEMPT_")) {
        String id = e.path("attemptId").asText();
        Map<String, Integer> target = type.equals("TASK_ATTEMPT_STARTED") ? startedAt : finishedAt;
        assertEquals(null, target.put(id, i), type + " twice for " + id);
      }
    }
    assertEquals(startedAt.keySet(), finishedAt.keySet(), "every started attempt finished, and only those");
    Map<String, AttemptEvents> attempts = new TreeMap<>();
    startedAt.forEach((id, s) -> {
      int f = finishedAt.get(id);
      assertTrue(s < f, id + " finished before it started");
      attempts.put(id, new AttemptEvents(events.get(s), events.get(f), s, f));
    });
    return attempts;
  }

  private static Map<String, Map<String, Long>> counterMap(JsonNode node) {
    Map<String, Map<String, Long>> groups = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> g = node.fields(); g.hasNext(); ) {
      Map.Entry<String, JsonNode> group = g.next();
      Map<String, Long> values = new TreeMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> c = group.getValue().fields(); c.hasNext(); ) {
        Map.Entry<String, JsonNode> counter = c.next();
        values.put(counter.getKey(), counter.getValue().asLong());
      }
      groups.put(group.getKey(), values);
    }
    return groups;
  }

  private static Map<String, Map<String, Long>> counterMap(Counters counters) {
    Map<String, Map<String, Long>> groups = new TreeMap<>();
    for (CounterGroup group : counters) {
      Map<String, Long> values = new TreeMap<>();
      for (Counter c : group) {
        values.put(c.getName(), c.getValue());
      }
      groups.put(group.getName(), values);
    }
    return groups;
  }

  private static void assertFirstAndLast(List<JsonNode> events, FinishedJob job, String status, int maps,
                                         int reduces) throws IOException {
    JsonNode first = events.get(0);
    assertEquals("JOB_SUBMITTED", first.path("event").asText());
    assertEquals(job.job().getJobID().toString(), first.path("jobId").asText());
    assertEquals(maps, first.path("maps").asInt());
    assertEquals(reduces, first.path("reduces").asInt());
    JsonNode last = events.get(events.size() - 1);
    assertEquals("JOB_FINISHED", last.path("event").asText());
    assertEquals(job.job().getJobID().toString(), last.path("jobId").asText());
    assertEquals(status, last.path("status").asText());
    assertEquals(counterMap(job.job().getCounters()), counterMap(last.path("counters")),
        "JOB_FINISHED carries the job's final counters");
    for (int i = 1; i < events.size() - 1; i++) {
      String type = events.get(i).path("event").asText();
      assertFalse(type.startsWith("JOB_"), "job event " + type + " in the middle of the history");
    }
  }

  private static long sumOverAttempts(Map<String, AttemptEvents> attempts, String status, TaskCounter counter) {
    long sum = 0;
    for (AttemptEvents a : attempts.values()) {
      if (a.finished().path("status").asText().equals(status)) {
        sum += a.finished().path("counters").path(TaskCounter.class.getName()).path(counter.name()).asLong();
      }
    }
    return sum;
  }

  private static void assertJobDirectoriesRemoved(Path frameworkRoot, String jobId) {
    assertEquals(List.of(), JobFixtures.filesBelow(JobFixtures.localDir(frameworkRoot)).stream()
        .filter(f -> f.contains(jobId)).toList(), "the job's local directory is removed");
    assertEquals(List.of(), JobFixtures.filesBelow(JobFixtures.stagingRoot(frameworkRoot)).stream()
        .filter(f -> f.contains(jobId)).toList(), "the job's staging directory is removed");
  }

  private static Job wordCount(Configuration conf, org.apache.hadoop.fs.Path in, org.apache.hadoop.fs.Path out,
                               Class<? extends Mapper<?, ?, ?, ?>> mapper, int reducers) throws IOException {
    Job job = Job.getInstance(conf, "history");
    job.setMapperClass(mapper);
    job.setReducerClass(IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(reducers);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }

  private Path input(int files) {
    Path input = root.resolve("input");
    for (int f = 0; f < files; f++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        lines.add("f" + f + " w" + (i % 7) + " w" + (i % 3));
      }
      JobFixtures.writeInputLines(input.resolve("in" + f), lines);
    }
    return input;
  }

  @Test
  void successfulJobHasOnePairPerAttemptAndItsFinalCounters() throws Exception {
    Path input = input(3);
    FinishedJob job = JobFixtures.runNewApiJob(VIVACE, root, input,
        (c, in, out) -> wordCount(c, in, out, TokenCounterMapper.class, 2));
    assertTrue(job.succeeded());
    List<JsonNode> events = history(job);
    assertFirstAndLast(events, job, "SUCCEEDED", 3, 2);
    Map<String, AttemptEvents> attempts = attempts(events);
    assertEquals(5, attempts.size(), "3 map and 2 reduce attempts: " + attempts.keySet());
    long maps = attempts.values().stream().filter(a -> a.started().path("taskType").asText().equals("MAP")).count();
    assertEquals(3, maps);
    for (Map.Entry<String, AttemptEvents> a : attempts.entrySet()) {
      assertEquals("SUCCEEDED", a.getValue().finished().path("status").asText(), a.getKey());
      assertEquals(a.getValue().started().path("taskType").asText(), a.getValue().finished().path("taskType").asText());
    }
    // the attempts' own counters add up to the job's
    for (TaskCounter c : new TaskCounter[] {TaskCounter.MAP_INPUT_RECORDS, TaskCounter.MAP_OUTPUT_RECORDS,
        TaskCounter.REDUCE_INPUT_RECORDS, TaskCounter.REDUCE_OUTPUT_RECORDS}) {
      assertEquals(job.counter(c), sumOverAttempts(attempts, "SUCCEEDED", c), c.name());
    }
    assertEquals(60, job.counter(TaskCounter.MAP_INPUT_RECORDS));
    assertJobDirectoriesRemoved(root.resolve(VIVACE), job.job().getJobID().toString());
  }

  /** Fails the first attempt of map 0 after it has written output; later attempts succeed. */
  public static class FailFirstAttemptMapper extends TokenCounterMapper {
    private int records;

    @Override
    public void map(Object key, Text value, Context context) throws IOException, InterruptedException {
      super.map(key, value, context);
      if (++records == 10 && context.getTaskAttemptID().getTaskID().getId() == 0
          && context.getTaskAttemptID().getId() == 0) {
        throw new IOException("first attempt of map 0 fails on purpose");
      }
    }
  }

  @ParameterizedTest(name = "{0} reducers")
  @ValueSource(ints = {0, 1})
  void retriedAttemptIsRecordedAndLeavesNoOutputOrCounters(int reducers) throws Exception {
    Path input = input(2);
    FinishedJob job = JobFixtures.runNewApiJob(VIVACE, root, input,
        (c, in, out) -> wordCount(c, in, out, FailFirstAttemptMapper.class, reducers));
    FinishedJob clean = JobFixtures.runNewApiJob(VIVACE, root.resolve("clean"), input,
        (c, in, out) -> wordCount(c, in, out, TokenCounterMapper.class, reducers));
    assertTrue(job.succeeded());
    List<String> got = new ArrayList<>(job.lines());
    List<String> expected = new ArrayList<>(clean.lines());
    got.sort(null);
    expected.sort(null);
    assertEquals(expected, got, "the failed attempt's output is discarded");
    assertEquals(40, job.counter(TaskCounter.MAP_INPUT_RECORDS), "only successful attempts count");
    assertEquals(clean.counter(TaskCounter.MAP_OUTPUT_RECORDS), job.counter(TaskCounter.MAP_OUTPUT_RECORDS));
    assertEquals(1, job.counter(JobCounter.NUM_FAILED_MAPS));
    assertEquals(3, job.counter(JobCounter.TOTAL_LAUNCHED_MAPS));

    List<JsonNode> events = history(job);
    assertFirstAndLast(events, job, "SUCCEEDED", 2, reducers);
    Map<String, AttemptEvents> attempts = attempts(events);
    assertEquals(3 + reducers, attempts.size(), attempts.keySet().toString());
    String jobPart = job.job().getJobID().toString().substring("job_".length());
    AttemptEvents failed = attempts.get("attempt_" + jobPart + "_m_000000_0");
    AttemptEvents retried = attempts.get("attempt_" + jobPart + "_m_000000_1");
    assertNotNull(failed, attempts.keySet().toString());
    assertNotNull(retried, attempts.keySet().toString());
    assertEquals("FAILED", failed.finished().path("status").asText());
    assertTrue(failed.finished().path("error").asText().contains("fails on purpose"));
    assertEquals("SUCCEEDED", retried.finished().path("status").asText());
    assertTrue(failed.finishedAt() < retried.startedAt(), "the retry starts after the failure");
    assertJobDirectoriesRemoved(root.resolve(VIVACE), job.job().getJobID().toString());
  }

  /** Always fails. */
  public static class AlwaysFailingMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException {
      throw new IOException("this mapper always fails");
    }
  }

  @Test
  void failedJobRecordsEveryAttemptAndCleansUp() throws Exception {
    Path input = input(1);
    FinishedJob job = JobFixtures.runNewApiJob(VIVACE, root, input, (c, in, out) -> {
      c.setInt(MRJobConfig.MAP_MAX_ATTEMPTS, 2);
      return wordCount(c, in, out, AlwaysFailingMapper.class, 1);
    });
    assertFalse(job.succeeded());
    assertFalse(job.job().getStatus().getFailureInfo().isEmpty());
    List<JsonNode> events = history(job);
    assertFirstAndLast(events, job, "FAILED", 1, 1);
    assertFalse(events.get(events.size() - 1).path("failureInfo").asText().isEmpty());
    Map<String, AttemptEvents> attempts = attempts(events);
    assertEquals(2, attempts.size(), "two map attempts, no reduce: " + attempts.keySet());
    for (AttemptEvents a : attempts.values()) {
      assertEquals("MAP", a.started().path("taskType").asText());
      assertEquals("FAILED", a.finished().path("status").asText());
      assertTrue(a.finished().path("error").asText().contains("this mapper always fails"));
    }
    assertEquals(2, job.counter(JobCounter.NUM_FAILED_MAPS));
    assertFalse(Files.exists(job.output().resolve("_SUCCESS")));
    assertEquals(List.of(), JobFixtures.filesBelow(job.output()).stream()
        .filter(f -> f.startsWith("part-") || f.startsWith("_temporary")).toList(), "aborted output is removed");
    assertJobDirectoriesRemoved(root.resolve(VIVACE), job.job().getJobID().toString());
  }

  /** Fails the first attempt of reduce 0 after it has consumed input and written output. */
  public static class FailFirstAttemptReducer extends IntSumReducer<Text> {
    private int groups;

    @Override
    public void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      super.reduce(key, values, context);
      if (++groups == 50 && context.getTaskAttemptID().getTaskID().getId() == 0
          && context.getTaskAttemptID().getId() == 0) {
        throw new IOException("first attempt of reduce 0 fails on purpose");
      }
    }
  }

  @Test
  void retriedReduceAttemptReadsItsWholeInputAgain() throws Exception {
    Path input = root.resolve("input");
    Map<String, Integer> counts = new TreeMap<>();
    java.util.Random random = new java.util.Random(5);
    for (int f = 0; f < 3; f++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 2_000; i++) {
        StringBuilder line = new StringBuilder();
        for (int w = 0; w < 25; w++) {
          String word = "w" + random.nextInt(3_000);
          counts.merge(word, 1, Integer::sum);
          line.append(word).append(' ');
        }
        lines.add(line.toString());
      }
      JobFixtures.writeInputLines(input.resolve("in" + f), lines);
    }
    FinishedJob job = JobFixtures.runNewApiJob(VIVACE, root, input, (c, in, out) -> {
      // map outputs spill to disk and the reducer merges three of them two at a time
      c.setInt(MRJobConfig.IO_SORT_MB, 1);
      c.setInt(MRJobConfig.IO_SORT_FACTOR, 2);
      Job j = wordCount(c, in, out, TokenCounterMapper.class, 2);
      j.setReducerClass(FailFirstAttemptReducer.class);
      return j;
    });
    assertTrue(job.succeeded());
    List<String> expected = new ArrayList<>();
    counts.forEach((w, n) -> expected.add(w + "\t" + n));
    List<String> got = new ArrayList<>(job.lines());
    got.sort(null);
    assertEquals(expected, got, "the retry sees every record once, the failed attempt's output is gone");
    assertEquals(1, job.counter(JobCounter.NUM_FAILED_REDUCES));
    assertEquals(3, job.counter(JobCounter.TOTAL_LAUNCHED_REDUCES));
    assertEquals(150_000, job.counter(TaskCounter.REDUCE_INPUT_RECORDS), "counted for the successful attempts only");

    Map<String, AttemptEvents> attempts = attempts(history(job));
    String jobPart = job.job().getJobID().toString().substring("job_".length());
    assertEquals("FAILED", attempts.get("attempt_" + jobPart + "_r_000000_0").finished().path("status").asText());
    assertEquals("SUCCEEDED", attempts.get("attempt_" + jobPart + "_r_000000_1").finished().path("status").asText());
    assertJobDirectoriesRemoved(root.resolve(VIVACE), job.job().getJobID().toString());
  }

  /** Fails in the map reading file "in0"; the other maps work normally. */
  public static class FailOnFirstFileMapper extends TokenCounterMapper {
    @Override
    public void map(Object key, Text value, Context context) throws IOException, InterruptedException {
      String file = ((org.apache.hadoop.mapreduce.lib.input.FileSplit) context.getInputSplit()).getPath().getName();
      if (file.equals("in0")) {
        throw new IOException("the map of in0 fails on purpose");
      }
      super.map(key, value, context);
    }
  }

  @Test
  void failureAmongManyConcurrentMapsStillPairsEveryAttempt() throws Exception {
    Path input = root.resolve("input");
    for (int f = 0; f < 12; f++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 3_000; i++) {
        lines.add("f" + f + " w" + (i % 97) + " x" + (i % 13));
      }
      JobFixtures.writeInputLines(input.resolve("in" + f), lines);
    }
    FinishedJob job = JobFixtures.runNewApiJob(VIVACE, root, input, (c, in, out) -> {
      c.setInt(MRJobConfig.MAP_MAX_ATTEMPTS, 1);
      return wordCount(c, in, out, FailOnFirstFileMapper.class, 2);
    });
    assertFalse(job.succeeded());
    List<JsonNode> events = history(job);
    assertFirstAndLast(events, job, "FAILED", 12, 2);
    Map<String, AttemptEvents> attempts = attempts(events); // every start has exactly one end
    long failed = 0;
    for (AttemptEvents a : attempts.values()) {
      String status = a.finished().path("status").asText();
      assertTrue(List.of("SUCCEEDED", "FAILED", "KILLED").contains(status), status);
      assertEquals("MAP", a.started().path("taskType").asText(), "no reduce starts once a map failed for good");
      if (status.equals("FAILED")) {
        failed++;
      }
    }
    assertEquals(1, failed, "only the map of in0 failed: " + attempts.keySet());
    assertFalse(Files.exists(job.output().resolve("_SUCCESS")));
    assertEquals(List.of(), JobFixtures.filesBelow(job.output()).stream()
        .filter(f -> f.startsWith("part-") || f.startsWith("_temporary")).toList(), "aborted output is removed");
    assertJobDirectoriesRemoved(root.resolve(VIVACE), job.job().getJobID().toString());
  }
}
