package io.vivace.failure;

import static io.vivace.failure.FailureSupport.LOCAL;
import static io.vivace.failure.FailureSupport.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code job.killJob()} from the client: the running attempts are interrupted (or stopped at their
 * next record), queued ones never start, the job ends KILLED with nothing committed and its
 * {@code _temporary} removed, and every worker slot is free again afterwards.
 */
@Timeout(180)
class KillJobTest {

  static volatile CountDownLatch started = new CountDownLatch(0);
  static volatile CountDownLatch release = new CountDownLatch(0);
  static final AtomicInteger STARTED = new AtomicInteger();
  static final AtomicInteger INTERRUPTED = new AtomicInteger();
  static final AtomicInteger MAP_CALLS = new AtomicInteger();
  static volatile CyclicBarrier barrier;

  @TempDir
  File root;

  @BeforeEach
  void reset() {
    STARTED.set(0);
    INTERRUPTED.set(0);
    MAP_CALLS.set(0);
    release = new CountDownLatch(1);
  }

  /** Jobs this test submitted: none may outlive it (their files are in the test's temporary dir). */
  private final List<Job> submitted = new ArrayList<>();

  @AfterEach
  void releaseStragglers() throws Exception {
    release.countDown(); // never leave a blocked task behind, even when a test failed
    for (Job job : submitted) {
      if (!FailureSupport.isComplete(job)) {
        job.killJob();
        FailureSupport.awaitJob(job);
      }
    }
  }

  private void submit(Job job) throws Exception {
    job.submit();
    submitted.add(job);
  }

  /** Writes its record, then blocks until interrupted (or released by the test's cleanup). */
  public static class BlockingMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      context.write(value, new IntWritable(1));
      STARTED.incrementAndGet();
      started.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        INTERRUPTED.incrementAndGet();
        throw e;
      }
    }
  }

  /** Writes its record, blocks, and on interrupt just returns: the next record read must stop it. */
  public static class InterruptIgnoringMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      context.write(value, new IntWritable(1));
      if (MAP_CALLS.incrementAndGet() == 1) {
        started.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          INTERRUPTED.incrementAndGet(); // swallowed on purpose
        }
      }
    }
  }

  /** Writes its first group, then blocks until interrupted. */
  public static class BlockingReducer extends Reducer<Text, IntWritable, Text, IntWritable> {
    @Override
    protected void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      context.write(key, new IntWritable(1));
      started.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        INTERRUPTED.incrementAndGet();
        throw e;
      }
    }
  }

  /** All maps of the job must run at the same time to get past the barrier. */
  public static class BarrierMapper extends FailureSupport.TokenMapper {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      try {
        barrier.await(60, TimeUnit.SECONDS);
      } catch (BrokenBarrierException | TimeoutException e) {
        throw new IOException("not all worker slots were free: only " + barrier.getNumberWaiting()
            + " of " + barrier.getParties() + " maps could run at once", e);
      }
      super.run(context);
    }
  }

  private static void await(CountDownLatch latch, String what) throws InterruptedException {
    assertTrue(latch.await(FailureSupport.HANG_GUARD_MILLIS, TimeUnit.MILLISECONDS), "never happened: " + what);
  }

  /** Kills the running job and waits for it to end; checks what a killed job must leave. */
  private void killAndCheck(Job job, Configuration conf, File out, boolean mapsCompleted) throws Exception {
    job.killJob();
    assertFalse(FailureSupport.awaitJob(job), "a killed job is not successful");
    assertEquals(JobStatus.State.KILLED, job.getJobState());
    FailureSupport.assertNothingCommitted(out);
    if (VIVACE.equals(conf.get("mapreduce.framework.name"))) {
      FailureSupport.assertNoLocalFiles(conf, job.getJobID());
      assertTrue(FailureSupport.events(job, true, TaskCompletionEvent.Status.FAILED).isEmpty(),
          "killed attempts are not failures");
      assertTrue(FailureSupport.events(job, false, TaskCompletionEvent.Status.FAILED).isEmpty(),
          "killed attempts are not failures");
      assertFalse(FailureSupport.events(job, !mapsCompleted, TaskCompletionEvent.Status.KILLED).isEmpty(),
          "the stopped attempts are recorded as KILLED");
      assertTrue(FailureSupport.events(job, false, TaskCompletionEvent.Status.SUCCEEDED).isEmpty(),
          "no reduce of a killed job counts as succeeded");
      if (!mapsCompleted) {
        assertTrue(FailureSupport.events(job, true, TaskCompletionEvent.Status.SUCCEEDED).isEmpty(),
            "no map of a killed job counts as succeeded");
      }
      assertEquals(0, job.getCounters().findCounter(JobCounter.NUM_FAILED_MAPS).getValue());
      assertEquals(0, job.getCounters().findCounter(JobCounter.NUM_FAILED_REDUCES).getValue());
      List<JsonNode> history = FailureSupport.history(conf, job.getJobID());
      JsonNode last = history.get(history.size() - 1);
      assertEquals("JOB_FINISHED", last.path("event").asText());
      assertEquals("KILLED", last.path("status").asText());
    }
  }

  /** Every worker slot is free: a job whose maps need all slots at once succeeds. */
  private void assertAllSlotsFree(String name) throws Exception {
    Configuration conf = FailureSupport.conf(root, VIVACE);
    int slots = FailureSupport.slots(conf);
    barrier = new CyclicBarrier(slots);
    File out = new File(root, "out-" + name);
    Job job = FailureSupport.wordCount(conf, name, FailureSupport.inputFiles(new File(root, "in-" + name),
        slots, 3), out, 1);
    job.setMapperClass(BarrierMapper.class);
    assertTrue(job.waitForCompletion(false), () -> FailureSupport.failureInfo(job));
    FailureSupport.assertOutput(FailureSupport.expectedWordCounts(slots, 3), out);
  }

  private Job blockingJob(Configuration conf, String name, int maps, File out) throws IOException {
    Job job = FailureSupport.wordCount(conf, name, FailureSupport.inputFiles(new File(root, "in-" + name),
        maps, 5), out, 1);
    job.setMapperClass(BlockingMapper.class);
    return job;
  }

  @Test
  void killStopsABlockedMapperByInterrupt() throws Exception {
    Configuration conf = FailureSupport.conf(root, VIVACE);
    File out = new File(root, "out");
    started = new CountDownLatch(1);
    Job job = blockingJob(conf, "kill-map", 1, out);
    submit(job);
    await(started, "the mapper starts");

    killAndCheck(job, conf, out, false);
    assertEquals(1, INTERRUPTED.get(), "the blocked mapper was interrupted");
    assertAllSlotsFree("after-kill-map");
  }

  @Test
  void killStopsAnInterruptIgnoringMapperAtItsNextRecord() throws Exception {
    Configuration conf = FailureSupport.conf(root, VIVACE);
    File out = new File(root, "out");
    started = new CountDownLatch(1);
    Job job = FailureSupport.wordCount(conf, "kill-stubborn-map",
        FailureSupport.inputFiles(new File(root, "in"), 1, 50), out, 0);
    job.setMapperClass(InterruptIgnoringMapper.class);
    submit(job);
    await(started, "the mapper starts");

    killAndCheck(job, conf, out, false);
    assertEquals(1, INTERRUPTED.get(), "the mapper saw the interrupt");
    assertEquals(1, MAP_CALLS.get(), "no record was handed to the mapper after the kill");
    assertAllSlotsFree("after-kill-stubborn-map");
  }

  @Test
  void killDropsQueuedMapsAndStopsAllRunningOnes() throws Exception {
    Configuration conf = FailureSupport.conf(root, VIVACE);
    int slots = FailureSupport.slots(conf);
    File out = new File(root, "out");
    started = new CountDownLatch(slots);
    Job job = blockingJob(conf, "kill-queued", 2 * slots + 1, out);
    submit(job);
    await(started, "every slot runs a map");

    killAndCheck(job, conf, out, false);
    assertEquals(slots, STARTED.get(), "queued maps never started");
    assertEquals(slots, INTERRUPTED.get(), "every running map was interrupted");
    assertAllSlotsFree("after-kill-queued");
  }

  @Test
  void killDuringTheReduceRemovesItsPartialOutput() throws Exception {
    Configuration conf = FailureSupport.conf(root, VIVACE);
    File out = new File(root, "out");
    started = new CountDownLatch(1);
    Job job = FailureSupport.wordCount(conf, "kill-reduce", FailureSupport.inputFiles(new File(root, "in"), 2, 5),
        out, 1);
    job.setReducerClass(BlockingReducer.class);
    submit(job);
    await(started, "the reducer starts");
    assertFalse(FailureSupport.regularFiles(new File(out, "_temporary")).isEmpty(),
        "the reducer has written to its attempt directory");

    killAndCheck(job, conf, out, true);
    assertEquals(1, INTERRUPTED.get(), "the blocked reducer was interrupted");
    assertAllSlotsFree("after-kill-reduce");
  }

  /** Attempt 0 of map 0 blocks until interrupted; every other attempt counts words. */
  public static class FirstAttemptBlocksMapper extends FailureSupport.TokenMapper {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      if (context.getTaskAttemptID().getTaskID().getId() == 0 && context.getTaskAttemptID().getId() == 0) {
        STARTED.incrementAndGet();
        started.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          INTERRUPTED.incrementAndGet();
          throw e;
        }
      }
      super.run(context);
    }
  }

  private Job firstAttemptBlocksJob(Configuration conf, String name, File out) throws Exception {
    Job job = FailureSupport.wordCount(conf, name, FailureSupport.inputFiles(new File(root, "in"), 2, 5), out, 1);
    job.setMapperClass(FirstAttemptBlocksMapper.class);
    started = new CountDownLatch(1);
    submit(job);
    await(started, "attempt 0 of map 0 starts");
    return job;
  }

  @Test
  void killTaskStopsTheAttemptAndRetriesItWithoutCountingAFailure() throws Exception {
    Configuration conf = FailureSupport.conf(root, VIVACE);
    conf.setInt("mapreduce.map.maxattempts", 1); // a kill must not use up an attempt
    File out = new File(root, "out");
    Job job = firstAttemptBlocksJob(conf, "kill-task", out);
    TaskAttemptID attempt = new TaskAttemptID(new TaskID(job.getJobID(), TaskType.MAP, 0), 0);

    job.killTask(attempt);
    assertTrue(FailureSupport.awaitJob(job), () -> FailureSupport.failureInfo(job));
    FailureSupport.assertOutput(FailureSupport.expectedWordCounts(2, 5), out);
    assertEquals(1, INTERRUPTED.get(), "the attempt was interrupted");
    List<TaskCompletionEvent> killed = FailureSupport.events(job, true, TaskCompletionEvent.Status.KILLED);
    assertEquals(List.of(attempt.toString()), killed.stream().map(e -> e.getTaskAttemptId().toString())
        .collect(Collectors.toList()));
    assertTrue(FailureSupport.events(job, true, TaskCompletionEvent.Status.FAILED).isEmpty());
    assertEquals(0, job.getCounters().findCounter(JobCounter.NUM_FAILED_MAPS).getValue());
    assertEquals(1, job.getCounters().findCounter(JobCounter.NUM_KILLED_MAPS).getValue(),
        "Hadoop counts each killed attempt in NUM_KILLED_MAPS");
  }

  @Test
  void failTaskStopsTheAttemptAndCountsItAsFailed() throws Exception {
    Configuration conf = FailureSupport.conf(root, VIVACE);
    conf.setInt("mapreduce.map.maxattempts", 2);
    File out = new File(root, "out");
    Job job = firstAttemptBlocksJob(conf, "fail-task", out);
    TaskAttemptID attempt = new TaskAttemptID(new TaskID(job.getJobID(), TaskType.MAP, 0), 0);

    job.failTask(attempt);
    assertTrue(FailureSupport.awaitJob(job), () -> FailureSupport.failureInfo(job));
    FailureSupport.assertOutput(FailureSupport.expectedWordCounts(2, 5), out);
    List<TaskCompletionEvent> failed = FailureSupport.events(job, true, TaskCompletionEvent.Status.FAILED);
    assertEquals(List.of(attempt.toString()), failed.stream().map(e -> e.getTaskAttemptId().toString())
        .collect(Collectors.toList()));
    assertEquals(1, job.getCounters().findCounter(JobCounter.NUM_FAILED_MAPS).getValue());
  }

  @Test
  void failTaskOnTheLastAttemptFailsTheJob() throws Exception {
    Configuration conf = FailureSupport.conf(root, VIVACE);
    conf.setInt("mapreduce.map.maxattempts", 1);
    File out = new File(root, "out");
    Job job = firstAttemptBlocksJob(conf, "fail-last-task", out);
    TaskAttemptID attempt = new TaskAttemptID(new TaskID(job.getJobID(), TaskType.MAP, 0), 0);

    job.failTask(attempt);
    assertFalse(FailureSupport.awaitJob(job));
    assertEquals(JobStatus.State.FAILED, job.getJobState());
    assertTrue(job.getStatus().getFailureInfo().contains(attempt.getTaskID().toString()),
        job.getStatus().getFailureInfo());
    FailureSupport.assertNothingCommitted(out);
    FailureSupport.assertNoLocalFiles(conf, job.getJobID());
  }

  @Test
  void killAfterCompletionChangesNothing() throws Exception {
    Configuration conf = FailureSupport.conf(root, VIVACE);
    File out = new File(root, "out");
    Job job = FailureSupport.wordCount(conf, "kill-late", FailureSupport.inputFiles(new File(root, "in"), 2, 5),
        out, 1);
    assertTrue(job.waitForCompletion(false));
    job.killJob();
    assertEquals(JobStatus.State.SUCCEEDED, job.getJobState());
    assertTrue(job.isSuccessful());
    FailureSupport.assertOutput(FailureSupport.expectedWordCounts(2, 5), out);
  }

  /** Hadoop ends every task a killed job had not finished as KILLED: none is left RUNNING or PENDING. */
  @Test
  void tasksOfAKilledJobEndKilled() throws Exception {
    Configuration conf = FailureSupport.conf(root, VIVACE);
    int slots = FailureSupport.slots(conf);
    File out = new File(root, "out");
    started = new CountDownLatch(slots);
    Job job = blockingJob(conf, "kill-task-states", slots + 1, out);
    submit(job);
    await(started, "every slot runs a map");
    job.killJob();
    assertFalse(FailureSupport.awaitJob(job));
    FailureSupport.assertNoTaskLeftRunning(job);
  }

  /**
   * The same kill on LocalJobRunner: KILLED, nothing committed. LocalJobRunner goes on deleting its
   * job files after reporting the job killed, so this test's directory is not a JUnit one (which
   * must delete cleanly) but removed on a best-effort basis.
   */
  @Test
  void localJobRunnerKillEndsTheSameWay() throws Exception {
    File localRoot = java.nio.file.Files.createTempDirectory("vivace-kill-local").toFile();
    try {
      Configuration conf = FailureSupport.conf(localRoot, LOCAL);
      File out = new File(localRoot, "out");
      started = new CountDownLatch(1);
      Job job = FailureSupport.wordCount(conf, "kill-map-local",
          FailureSupport.inputFiles(new File(localRoot, "in"), 1, 5), out, 1);
      job.setMapperClass(BlockingMapper.class);
      submit(job);
      await(started, "the mapper starts");
      killAndCheck(job, conf, out, false);
    } finally {
      release.countDown();
      org.apache.hadoop.fs.FileUtil.fullyDelete(localRoot);
    }
  }
}
