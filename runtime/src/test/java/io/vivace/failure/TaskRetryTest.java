package io.vivace.failure;

import static io.vivace.failure.FailureSupport.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.TIPStatus;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Task attempts that throw: retried up to {@code mapreduce.(map|reduce).maxattempts}, then the job
 * fails naming the task, the attempt and the cause, with nothing committed and no local files
 * left; an attempt that fails once is retried and the job's output is exactly right.
 */
@Timeout(120)
class TaskRetryTest {

  /** Records emitted by a spilling map: ~3 MB, i.e. several spills at io.sort.mb=1. */
  static final int SPILLING_RECORDS = 30_000;
  private static final String PADDING = "v".repeat(80);

  static final Queue<String> ATTEMPTS = new ConcurrentLinkedQueue<>();
  /** Files found in the job's local dir when an attempt threw: proves it had spilled. */
  static final Queue<Integer> LOCAL_FILES_AT_FAILURE = new ConcurrentLinkedQueue<>();
  /** Files found under the output dir when a reduce attempt threw: proves it had written output. */
  static final Queue<Integer> OUTPUT_FILES_AT_FAILURE = new ConcurrentLinkedQueue<>();
  /** Files found in the job's local dir when an attempt started: a failed attempt's spills must be gone. */
  static final Queue<Integer> LOCAL_FILES_AT_START = new ConcurrentLinkedQueue<>();

  @TempDir
  File root;

  @BeforeEach
  void reset() {
    ATTEMPTS.clear();
    LOCAL_FILES_AT_FAILURE.clear();
    OUTPUT_FILES_AT_FAILURE.clear();
    LOCAL_FILES_AT_START.clear();
  }

  private Configuration conf() {
    Configuration conf = FailureSupport.conf(root, VIVACE);
    conf.setInt("mapreduce.map.maxattempts", 3);
    conf.setInt("mapreduce.reduce.maxattempts", 3);
    conf.setInt("mapreduce.task.io.sort.mb", 1);
    return conf;
  }

  /** Files task attempts left in the job's local dirs (the job's own job.xml copy aside). */
  static int localFiles(Mapper<?, ?, ?, ?>.Context context) {
    return attemptFiles(context.getConfiguration(), context.getJobID());
  }

  static int localFiles(Reducer<?, ?, ?, ?>.Context context) {
    return attemptFiles(context.getConfiguration(), context.getJobID());
  }

  private static int attemptFiles(org.apache.hadoop.conf.Configuration conf, org.apache.hadoop.mapreduce.JobID id) {
    return (int) FailureSupport.jobLocalDirs(conf, id).stream().flatMap(d -> FailureSupport.regularFiles(d).stream())
        .filter(f -> !new File(f).getName().equals("job.xml")).count();
  }

  static void emitSpillingOutput(Mapper<?, ?, Text, Text>.Context context) throws IOException, InterruptedException {
    Text key = new Text();
    Text value = new Text();
    for (int i = 0; i < SPILLING_RECORDS; i++) {
      key.set(String.format("key%05d", (i * 7919) % 5000));
      value.set(i + PADDING);
      context.write(key, value);
    }
  }

  /** Writes enough to spill, then throws, on every attempt. */
  public static class ExplodingMapper extends Mapper<LongWritable, Text, Text, Text> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      ATTEMPTS.add(context.getTaskAttemptID().toString());
      LOCAL_FILES_AT_START.add(localFiles(context));
      emitSpillingOutput(context);
      LOCAL_FILES_AT_FAILURE.add(localFiles(context));
      throw new IOException("mapper exploded on purpose");
    }
  }

  /** Writes enough to spill; succeeds. */
  public static class SpillingMapper extends Mapper<LongWritable, Text, Text, Text> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      emitSpillingOutput(context);
    }
  }

  /** Writes some output, then throws, on every attempt. */
  public static class ExplodingReducer extends Reducer<Text, Text, Text, Text> {
    private int keys;

    @Override
    protected void setup(Context context) {
      ATTEMPTS.add(context.getTaskAttemptID().toString());
    }

    @Override
    protected void reduce(Text key, Iterable<Text> values, Context context) throws IOException, InterruptedException {
      context.write(key, values.iterator().next());
      if (++keys == 100) {
        LOCAL_FILES_AT_FAILURE.add(localFiles(context));
        OUTPUT_FILES_AT_FAILURE.add(FailureSupport.regularFiles(
            new File(FileOutputFormat.getOutputPath(context).toUri().getPath())).size());
        throw new IOException("reducer exploded on purpose");
      }
    }
  }

  /** Word count map whose attempt 0 of task 0 writes part of its output, then throws. */
  public static class FirstAttemptFailsMapper extends FailureSupport.TokenMapper {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      ATTEMPTS.add(context.getTaskAttemptID().toString());
      TaskAttemptID id = context.getTaskAttemptID();
      if (id.getTaskID().getId() == 0 && id.getId() == 0) {
        setup(context);
        context.nextKeyValue();
        map(context.getCurrentKey(), context.getCurrentValue(), context);
        throw new IOException("first attempt fails on purpose");
      }
      super.run(context);
    }
  }

  /** Echoes its input lines; attempt 0 echoes all of them, then throws. */
  public static class FirstAttemptFailsEchoMapper extends Mapper<LongWritable, Text, Text, NullWritable> {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      context.write(value, NullWritable.get());
    }

    @Override
    protected void cleanup(Context context) throws IOException {
      ATTEMPTS.add(context.getTaskAttemptID().toString());
      if (context.getTaskAttemptID().getId() == 0) {
        throw new IOException("first attempt fails on purpose after writing its output");
      }
    }
  }

  /** Sums counts; attempt 0 writes some results, then throws. */
  public static class FirstAttemptFailsReducer extends FailureSupport.SumReducer {
    private int keys;

    @Override
    protected void setup(Context context) {
      ATTEMPTS.add(context.getTaskAttemptID().toString());
    }

    @Override
    protected void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      super.reduce(key, values, context);
      if (context.getTaskAttemptID().getId() == 0 && ++keys == 2) {
        throw new IOException("first reduce attempt fails on purpose");
      }
    }
  }

  private static void assertFailureNames(Job job, TaskAttemptID lastAttempt, String cause) throws Exception {
    String info = job.getStatus().getFailureInfo();
    assertTrue(info.contains(lastAttempt.getTaskID().toString()), "failure info names the task: " + info);
    assertTrue(info.contains(lastAttempt.toString()), "failure info names the attempt: " + info);
    assertTrue(info.contains(cause), "failure info names the cause: " + info);
  }

  private static List<String> ids(List<TaskCompletionEvent> events) {
    return events.stream().map(e -> e.getTaskAttemptId().toString()).sorted().collect(Collectors.toList());
  }

  private static List<String> sorted(Queue<String> q) {
    return q.stream().sorted().collect(Collectors.toList());
  }

  @Test
  void mapperThatAlwaysThrowsIsRetriedThenTheJobFails() throws Exception {
    Configuration conf = conf();
    File in = FailureSupport.inputFiles(new File(root, "in"), 1, 1);
    File out = new File(root, "out");
    Job job = FailureSupport.wordCount(conf, "exploding-map", in, out, 1);
    job.setMapperClass(ExplodingMapper.class);
    job.setMapOutputValueClass(Text.class);

    assertFalse(job.waitForCompletion(false));
    assertEquals(JobStatus.State.FAILED, job.getJobState());

    assertEquals(3, ATTEMPTS.size(), "attempts: " + ATTEMPTS);
    List<TaskCompletionEvent> failed = FailureSupport.events(job, true, TaskCompletionEvent.Status.FAILED);
    assertEquals(sorted(ATTEMPTS), ids(failed), "one FAILED completion event per attempt");
    assertEquals(1, failed.stream().map(e -> e.getTaskAttemptId().getTaskID()).distinct().count(),
        "all attempts belong to the one map task");
    assertEquals(sorted(ATTEMPTS), FailureSupport.historyAttempts(conf, job.getJobID(), "MAP", "FAILED").stream()
        .sorted().collect(Collectors.toList()), "history records each FAILED attempt");
    assertTrue(FailureSupport.events(job, false, TaskCompletionEvent.Status.SUCCEEDED).isEmpty());

    TaskAttemptID last = failed.get(failed.size() - 1).getTaskAttemptId();
    assertEquals(2, last.getId(), "the last attempt is the third");
    assertFailureNames(job, last, "mapper exploded on purpose");
    String diagnostics = String.join("\n", job.getTaskDiagnostics(last));
    assertTrue(diagnostics.contains("mapper exploded on purpose"), diagnostics);
    assertEquals(3, job.getCounters().findCounter(JobCounter.NUM_FAILED_MAPS).getValue());
    TaskReport report = job.getTaskReports(TaskType.MAP)[0];
    assertEquals(TIPStatus.FAILED, report.getCurrentStatus());
    assertTrue(String.join("\n", report.getDiagnostics()).contains("mapper exploded on purpose"));
    List<JsonNode> history = FailureSupport.history(conf, job.getJobID());
    JsonNode finished = history.get(history.size() - 1);
    assertEquals("JOB_FINISHED", finished.path("event").asText());
    assertEquals("FAILED", finished.path("status").asText());
    assertTrue(finished.path("failureInfo").asText().contains(last.toString()), finished.toString());

    assertEquals(3, LOCAL_FILES_AT_FAILURE.size());
    assertTrue(LOCAL_FILES_AT_FAILURE.stream().allMatch(n -> n > 0),
        "every attempt had spilled before it threw: " + LOCAL_FILES_AT_FAILURE);
    assertEquals(List.of(0, 0, 0), new ArrayList<>(LOCAL_FILES_AT_START),
        "each retry started with the failed attempt's spills removed");
    FailureSupport.assertNothingCommitted(out);
    FailureSupport.assertNoLocalFiles(conf, job.getJobID());
  }

  @Test
  void reducerThatAlwaysThrowsIsRetriedThenTheJobFails() throws Exception {
    Configuration conf = conf();
    File in = FailureSupport.inputFiles(new File(root, "in"), 2, 1);
    File out = new File(root, "out");
    Job job = FailureSupport.wordCount(conf, "exploding-reduce", in, out, 1);
    job.setMapperClass(SpillingMapper.class);
    job.setReducerClass(ExplodingReducer.class);
    job.setMapOutputValueClass(Text.class);
    job.setOutputValueClass(Text.class);

    assertFalse(job.waitForCompletion(false));
    assertEquals(JobStatus.State.FAILED, job.getJobState());

    assertEquals(3, ATTEMPTS.size(), "attempts: " + ATTEMPTS);
    List<TaskCompletionEvent> failed = FailureSupport.events(job, false, TaskCompletionEvent.Status.FAILED);
    assertEquals(sorted(ATTEMPTS), ids(failed), "one FAILED completion event per reduce attempt");
    assertEquals(2, FailureSupport.events(job, true, TaskCompletionEvent.Status.SUCCEEDED).size());
    assertEquals(sorted(ATTEMPTS), FailureSupport.historyAttempts(conf, job.getJobID(), "REDUCE", "FAILED")
        .stream().sorted().collect(Collectors.toList()));

    TaskAttemptID last = failed.get(failed.size() - 1).getTaskAttemptId();
    assertEquals(TaskType.REDUCE, last.getTaskType());
    assertEquals(2, last.getId());
    assertFailureNames(job, last, "reducer exploded on purpose");
    Counters counters = job.getCounters();
    assertEquals(3, counters.findCounter(JobCounter.NUM_FAILED_REDUCES).getValue());
    assertTrue(counters.findCounter(TaskCounter.SPILLED_RECORDS).getValue()
            >= counters.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue(),
        "map output went through spill files");

    assertEquals(3, LOCAL_FILES_AT_FAILURE.size());
    assertEquals(3, OUTPUT_FILES_AT_FAILURE.size());
    assertTrue(LOCAL_FILES_AT_FAILURE.stream().allMatch(n -> n > 0),
        "map output files existed while the reduces ran: " + LOCAL_FILES_AT_FAILURE);
    assertTrue(OUTPUT_FILES_AT_FAILURE.stream().allMatch(n -> n > 0),
        "each reduce attempt had written output before it threw: " + OUTPUT_FILES_AT_FAILURE);
    FailureSupport.assertNothingCommitted(out);
    FailureSupport.assertNoLocalFiles(conf, job.getJobID());
  }

  @Test
  void mapperFailingOnlyItsFirstAttemptIsRetriedAndTheJobSucceeds() throws Exception {
    Configuration conf = conf();
    File in = FailureSupport.inputFiles(new File(root, "in"), 2, 20);
    File out = new File(root, "out");
    Job job = FailureSupport.wordCount(conf, "flaky-map", in, out, 2);
    job.setMapperClass(FirstAttemptFailsMapper.class);

    assertTrue(job.waitForCompletion(false), () -> "job failed: " + FailureSupport.failureInfo(job));
    FailureSupport.assertOutput(FailureSupport.expectedWordCounts(2, 20), out);

    List<TaskCompletionEvent> failed = FailureSupport.events(job, true, TaskCompletionEvent.Status.FAILED);
    assertEquals(1, failed.size(), "exactly one FAILED attempt: " + failed);
    TaskAttemptID failedId = failed.get(0).getTaskAttemptId();
    assertEquals(0, failedId.getTaskID().getId());
    assertEquals(0, failedId.getId());
    List<String> succeeded = ids(FailureSupport.events(job, true, TaskCompletionEvent.Status.SUCCEEDED));
    assertEquals(2, succeeded.size());
    assertTrue(succeeded.contains(new TaskAttemptID(failedId.getTaskID(), 1).toString()),
        "the retry of the failed map succeeded: " + succeeded);
    assertEquals(List.of(failedId.toString()),
        FailureSupport.historyAttempts(conf, job.getJobID(), "MAP", "FAILED"));
    Counters counters = job.getCounters();
    assertEquals(1, counters.findCounter(JobCounter.NUM_FAILED_MAPS).getValue());
    assertEquals(3, counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue());
    assertEquals("", job.getStatus().getFailureInfo());
    FailureSupport.assertNoLocalFiles(conf, job.getJobID());
  }

  @Test
  void mapOnlyAttemptThatFailsAfterWritingLeavesNoDuplicateOutput() throws Exception {
    Configuration conf = conf();
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      lines.add("line-" + i);
    }
    File in = new File(root, "in");
    FailureSupport.writeLines(in, "lines.txt", lines);
    File out = new File(root, "out");
    Job job = Job.getInstance(conf, "flaky-map-only");
    job.setMapperClass(FirstAttemptFailsEchoMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
    FileInputFormat.addInputPath(job, FailureSupport.path(in));
    FileOutputFormat.setOutputPath(job, FailureSupport.path(out));

    assertTrue(job.waitForCompletion(false), () -> "job failed: " + FailureSupport.failureInfo(job));
    assertEquals(2, ATTEMPTS.size(), "attempts: " + ATTEMPTS);
    lines.sort(null);
    FailureSupport.assertOutput(lines, out);
    assertEquals(1, FailureSupport.events(job, true, TaskCompletionEvent.Status.FAILED).size());
  }

  @Test
  void reducerFailingOnlyItsFirstAttemptIsRetriedOnTheSameMapOutput() throws Exception {
    Configuration conf = conf();
    File in = FailureSupport.inputFiles(new File(root, "in"), 3, 20);
    File out = new File(root, "out");
    Job job = FailureSupport.wordCount(conf, "flaky-reduce", in, out, 1);
    job.setReducerClass(FirstAttemptFailsReducer.class);

    assertTrue(job.waitForCompletion(false), () -> "job failed: " + FailureSupport.failureInfo(job));
    FailureSupport.assertOutput(FailureSupport.expectedWordCounts(3, 20), out);
    List<TaskCompletionEvent> failed = FailureSupport.events(job, false, TaskCompletionEvent.Status.FAILED);
    assertEquals(1, failed.size(), "exactly one FAILED reduce attempt: " + failed);
    assertEquals(0, failed.get(0).getTaskAttemptId().getId());
    assertEquals(List.of(failed.get(0).getTaskAttemptId().toString()),
        FailureSupport.historyAttempts(conf, job.getJobID(), "REDUCE", "FAILED"));
    assertEquals(3, FailureSupport.events(job, true, TaskCompletionEvent.Status.SUCCEEDED).size(),
        "the maps ran once: the retry re-read their output");
    assertEquals(1, job.getCounters().findCounter(JobCounter.NUM_FAILED_REDUCES).getValue());
    FailureSupport.assertNoLocalFiles(conf, job.getJobID());
  }

  // ---- a failed task stops the rest of its job ---------------------------------------------

  static volatile CountDownLatch siblingStarted = new CountDownLatch(0);
  static volatile CountDownLatch release = new CountDownLatch(0);
  static final AtomicInteger SIBLINGS_STARTED = new AtomicInteger();
  static final AtomicInteger SIBLINGS_INTERRUPTED = new AtomicInteger();

  /** Map 0 throws once another map of the job is running; every other map blocks until interrupted. */
  public static class FailOneBlockOthersMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      if (context.getTaskAttemptID().getTaskID().getId() == 0) {
        if (!siblingStarted.await(FailureSupport.HANG_GUARD_MILLIS, TimeUnit.MILLISECONDS)) {
          throw new IOException("no sibling map ever started");
        }
        throw new IOException("map 0 fails the job");
      }
      SIBLINGS_STARTED.incrementAndGet();
      siblingStarted.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        SIBLINGS_INTERRUPTED.incrementAndGet();
        throw e;
      }
    }
  }

  @Test
  void taskThatExhaustsItsAttemptsStopsTheRunningAndQueuedTasksOfItsJob() throws Exception {
    Configuration conf = conf();
    conf.setInt("mapreduce.map.maxattempts", 1);
    int slots = FailureSupport.slots(conf);
    Assumptions.assumeTrue(slots >= 2, "needs two worker slots, the engine has " + slots);
    siblingStarted = new CountDownLatch(1);
    release = new CountDownLatch(1);
    SIBLINGS_STARTED.set(0);
    SIBLINGS_INTERRUPTED.set(0);
    try {
      File out = new File(root, "out");
      Job job = FailureSupport.wordCount(conf, "fail-stops-siblings",
          FailureSupport.inputFiles(new File(root, "in"), 2 * slots + 1, 2), out, 1);
      job.setMapperClass(FailOneBlockOthersMapper.class);

      assertFalse(job.waitForCompletion(false), "the job fails although its other maps never end by themselves");
      assertEquals(JobStatus.State.FAILED, job.getJobState());
      assertTrue(job.getStatus().getFailureInfo().contains("map 0 fails the job"), job.getStatus().getFailureInfo());
      assertTrue(SIBLINGS_STARTED.get() >= 1 && SIBLINGS_STARTED.get() < 2 * slots,
          "queued maps never started: " + SIBLINGS_STARTED.get() + " of " + 2 * slots);
      assertEquals(SIBLINGS_STARTED.get(), SIBLINGS_INTERRUPTED.get(), "every running map was interrupted");
      assertTrue(FailureSupport.events(job, true, TaskCompletionEvent.Status.SUCCEEDED).isEmpty());
      FailureSupport.assertNothingCommitted(out);
      FailureSupport.assertNoLocalFiles(conf, job.getJobID());
    } finally {
      release.countDown();
    }
  }

  /**
   * Hadoop kills the tasks a failed job had not finished: once the job has ended, none of its tasks
   * is still RUNNING (the interrupted siblings) or PENDING (queued maps, the reduce).
   */
  @Test
  void tasksOfAFailedJobAreNotLeftRunningOrPending() throws Exception {
    Configuration conf = conf();
    conf.setInt("mapreduce.map.maxattempts", 1);
    int slots = FailureSupport.slots(conf);
    Assumptions.assumeTrue(slots >= 2, "needs two worker slots, the engine has " + slots);
    siblingStarted = new CountDownLatch(1);
    release = new CountDownLatch(1);
    try {
      Job job = FailureSupport.wordCount(conf, "failed-task-states",
          FailureSupport.inputFiles(new File(root, "in"), slots + 1, 2), new File(root, "out"), 1);
      job.setMapperClass(FailOneBlockOthersMapper.class);
      assertFalse(job.waitForCompletion(false));
      assertEquals(TIPStatus.FAILED, job.getTaskReports(TaskType.MAP)[0].getCurrentStatus());
      FailureSupport.assertNoTaskLeftRunning(job);
    } finally {
      release.countDown();
    }
  }

  // ---- a failed attempt is retried ahead of tasks that have not started --------------------

  static final Queue<String> START_ORDER = new ConcurrentLinkedQueue<>();
  static volatile CountDownLatch retryStarted = new CountDownLatch(0);

  /**
   * Attempt 0 of map 0 fails at once; every other map waits (at most 5 s) for map 0's retry to
   * start, so the worker slots stay busy and the freed slot decides what runs next.
   */
  public static class FailFastMapper extends FailureSupport.TokenMapper {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      TaskAttemptID id = context.getTaskAttemptID();
      START_ORDER.add(id.getTaskID().getId() + "_" + id.getId());
      if (id.getTaskID().getId() == 0) {
        if (id.getId() == 0) {
          throw new IOException("first attempt fails fast");
        }
        retryStarted.countDown();
      } else {
        retryStarted.await(5, TimeUnit.SECONDS); // bounded: a late retry makes the test fail, not hang
      }
      super.run(context);
    }
  }

  /**
   * Hadoop's MapReduce AM asks for containers for failed maps at a higher priority than for maps
   * not yet started ({@code PRIORITY_FAST_FAIL_MAP}), so a retry does not wait behind the job's
   * whole queue of pending maps.
   */
  @Test
  void retryOfAFailedMapRunsBeforeMapsThatHaveNotStarted() throws Exception {
    Configuration conf = conf();
    int slots = FailureSupport.slots(conf);
    int maps = slots + 1; // one map is still queued when map 0's first attempt fails
    START_ORDER.clear();
    retryStarted = new CountDownLatch(1);
    try {
      File out = new File(root, "out");
      Job job = FailureSupport.wordCount(conf, "fast-fail-retry",
          FailureSupport.inputFiles(new File(root, "in"), maps, 3), out, 1);
      job.setMapperClass(FailFastMapper.class);
      assertTrue(job.waitForCompletion(false), () -> FailureSupport.failureInfo(job));
      FailureSupport.assertOutput(FailureSupport.expectedWordCounts(maps, 3), out);

      List<String> order = new ArrayList<>(START_ORDER);
      int retry = order.indexOf("0_1");
      assertTrue(retry >= 0, "the retry ran: " + order);
      assertTrue(retry <= slots, "map 0's retry took the first free slot instead of waiting behind the queued "
          + "maps; start order (task_attempt): " + order);
    } finally {
      retryStarted.countDown();
    }
  }

  // ---- a reduce retry re-reads map output that went to disk -------------------------------

  /** Counts values per key; attempt 0 throws after writing 100 keys. */
  public static class CountingFirstAttemptFailsReducer extends Reducer<Text, Text, Text, IntWritable> {
    private int keys;

    @Override
    protected void reduce(Text key, Iterable<Text> values, Context context) throws IOException, InterruptedException {
      int n = 0;
      for (Text ignored : values) {
        n++;
      }
      context.write(key, new IntWritable(n));
      if (context.getTaskAttemptID().getId() == 0 && ++keys == 100) {
        throw new IOException("first reduce attempt fails after 100 keys");
      }
    }
  }

  @Test
  void reduceRetryRereadsSpilledMapOutput() throws Exception {
    Configuration conf = conf();
    File out = new File(root, "out");
    int maps = 2;
    Job job = FailureSupport.wordCount(conf, "reduce-retry-spilled",
        FailureSupport.inputFiles(new File(root, "in"), maps, 1), out, 2);
    job.setMapperClass(SpillingMapper.class);
    job.setReducerClass(CountingFirstAttemptFailsReducer.class);
    job.setMapOutputValueClass(Text.class);

    assertTrue(job.waitForCompletion(false), () -> FailureSupport.failureInfo(job));
    java.util.Map<String, Integer> counts = new java.util.TreeMap<>();
    for (int i = 0; i < SPILLING_RECORDS; i++) {
      counts.merge(String.format("key%05d", (i * 7919) % 5000), maps, Integer::sum);
    }
    List<String> expected = counts.entrySet().stream().map(e -> e.getKey() + "\t" + e.getValue())
        .collect(Collectors.toList());
    FailureSupport.assertOutput(expected, out);
    assertEquals(2, FailureSupport.events(job, false, TaskCompletionEvent.Status.FAILED).size(),
        "attempt 0 of each reduce failed");
    Counters counters = job.getCounters();
    assertTrue(counters.findCounter(TaskCounter.SPILLED_RECORDS).getValue()
        >= counters.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue(), "map output went to disk");
    FailureSupport.assertNoLocalFiles(conf, job.getJobID());
  }

  // ---- whatever user code throws, the attempt fails and the engine carries on --------------

  /** Throws what {@code test.throw} names. */
  public static class ThrowingMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      ATTEMPTS.add(context.getTaskAttemptID().toString());
      switch (context.getConfiguration().get("test.throw")) {
        case "error" -> throw new NoClassDefFoundError("simulated/MissingDependency");
        case "npe" -> throw new NullPointerException();
        case "interrupted" -> throw new InterruptedException("user code was interrupted by itself");
        default -> throw new IllegalStateException("unknown test.throw");
      }
    }
  }

  @ParameterizedTest
  @CsvSource({"error, java.lang.NoClassDefFoundError: simulated/MissingDependency",
      "npe, java.lang.NullPointerException",
      "interrupted, java.lang.InterruptedException: user code was interrupted by itself"})
  void anyThrowableFromUserCodeFailsTheAttempt(String kind, String expected) throws Exception {
    Configuration conf = conf();
    conf.setInt("mapreduce.map.maxattempts", 2);
    conf.set("test.throw", kind);
    File out = new File(root, "out");
    Job job = FailureSupport.wordCount(conf, "throws-" + kind, FailureSupport.inputFiles(new File(root, "in"), 1, 2),
        out, 1);
    job.setMapperClass(ThrowingMapper.class);

    assertFalse(job.waitForCompletion(false));
    assertEquals(JobStatus.State.FAILED, job.getJobState());
    assertEquals(2, ATTEMPTS.size(), "retried: " + ATTEMPTS);
    assertEquals(2, FailureSupport.events(job, true, TaskCompletionEvent.Status.FAILED).size(),
        "FAILED (not KILLED): the job did not ask the attempt to stop");
    String info = job.getStatus().getFailureInfo();
    assertTrue(info.contains(expected), "failure info names the cause: " + info);
    FailureSupport.assertNothingCommitted(out);

    // the worker threads survived: the next job runs
    File out2 = new File(root, "out2");
    Job next = FailureSupport.wordCount(FailureSupport.conf(root, VIVACE), "after-" + kind,
        FailureSupport.inputFiles(new File(root, "in2"), 2, 3), out2, 1);
    assertTrue(next.waitForCompletion(false), () -> FailureSupport.failureInfo(next));
    FailureSupport.assertOutput(FailureSupport.expectedWordCounts(2, 3), out2);
  }
}
