package io.vivace.scheduler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.counters.AttemptCounters;
import io.vivace.submit.Submission;
import io.vivace.submit.SubmissionLoader;
import io.vivace.testing.StagedJob;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.security.Credentials;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's scheduler ({@link JobRun}) on a real staged job, driven through its executor seam by a
 * {@link ScriptedExecutor}: what happens when work is lost or stopped at awkward moments.
 */
class JobRunTest {

  @TempDir
  Path dir;
  private final ScriptedExecutor executor = new ScriptedExecutor();
  private final AtomicInteger finished = new AtomicInteger();
  private int nextJob = 1;

  private Submission staged(int maps, int reduces) throws Exception {
    return staged(maps, reduces, conf -> { });
  }

  private Submission staged(int maps, int reduces, java.util.function.Consumer<org.apache.hadoop.mapred.JobConf> more)
      throws Exception {
    StagedJob job = StagedJob.stage(dir, "1", nextJob++, Collections.nCopies(maps, new String[0]), reduces, more);
    Configuration conf = new Configuration();
    conf.set(MRConfig.LOCAL_DIR, dir.resolve("local").toString());
    Submission submission = SubmissionLoader.load(job.id(), job.submitDir().toString(), new Credentials(), conf);
    submission.conf().set("vivace.history.dir", dir.resolve("history").toString());
    return submission;
  }

  private JobRun started(int maps, int reduces) throws Exception {
    JobRun job = new JobRun(staged(maps, reduces), executor, finished::incrementAndGet);
    job.start();
    executor.runSteps(); // setup: the maps are launched
    return job;
  }

  private static final long SECOND = 1_000_000_000L;
  /** The speculator's clock, driven by the tests. */
  private final java.util.concurrent.atomic.AtomicLong clock = new java.util.concurrent.atomic.AtomicLong();

  /** A job on executors where attempts may race (a session's), as MapReduce on YARN speculates. */
  private JobRun speculating(int maps, int reduces, java.util.function.Consumer<org.apache.hadoop.mapred.JobConf> more)
      throws Exception {
    executor.speculates = true;
    JobRun job = new JobRun(staged(maps, reduces, more), executor, finished::incrementAndGet);
    job.clock(clock::get);
    job.start();
    executor.runSteps();
    return job;
  }

  private long queued(boolean maps) {
    return executor.launches.stream().filter(t -> t.isMap() == maps).count();
  }

  private static long count(JobRun job, JobCounter counter) {
    return job.counters().findCounter(counter).getValue();
  }

  /** Maps 0 and 1 succeed after a second; map 2 runs on with {@code progress} at 2 s; returns map 2. */
  private Attempt twoMapsDoneAndOneRunning(JobRun job, float progress) {
    Attempt m0 = executor.start(true, new ScriptedExecutor.Handle());
    Attempt m1 = executor.start(true, new ScriptedExecutor.Handle());
    Attempt m2 = executor.start(true, new ScriptedExecutor.Handle(progress));
    clock.set(SECOND);
    assertTrue(job.attemptSucceeded(m0, none(), () -> { }));
    assertTrue(job.attemptSucceeded(m1, none(), () -> { }));
    clock.set(2 * SECOND);
    job.watch(System.nanoTime());
    return m2;
  }

  @Test
  void aStragglingMapGetsASpeculativeAttemptWhoseSuccessWinsAndKillsTheStraggler() throws Exception {
    JobRun job = speculating(3, 1, conf -> { });
    Attempt straggler = twoMapsDoneAndOneRunning(job, 0.1f); // it would end at 20 s, a new attempt at 3 s
    assertEquals(1, queued(true), "a speculative attempt of the straggler is launched");
    ScriptedExecutor.Handle twinHandle = new ScriptedExecutor.Handle();
    Attempt twin = executor.start(true, twinHandle);
    assertEquals(straggler.task(), twin.task());
    assertEquals(1, twin.id().getId(), "the task's second attempt");
    assertEquals(1, job.runningTasks(TaskType.MAP), "one task, two attempts");
    clock.set(3 * SECOND);
    assertTrue(job.attemptSucceeded(twin, none(), () -> { }), "the first attempt to succeed wins");
    ScriptedExecutor.Handle stragglerHandle = (ScriptedExecutor.Handle) straggler.handle;
    assertTrue(stragglerHandle.stopAsked, "the straggler is stopped");
    assertFalse(twinHandle.stopAsked);
    job.attemptFailed(straggler, none(), new IOException("stopped")); // as its executor reports it
    Attempt reduce = executor.start(false, new ScriptedExecutor.Handle());
    assertTrue(job.attemptSucceeded(reduce, none(), () -> { }));
    executor.runSteps(); // commit
    assertEquals(JobStatus.State.SUCCEEDED, job.status().getState());
    assertEquals(4, count(job, JobCounter.TOTAL_LAUNCHED_MAPS), "three maps and a speculative attempt");
    assertEquals(1, count(job, JobCounter.NUM_KILLED_MAPS), "the straggler, killed");
    assertEquals(0, count(job, JobCounter.NUM_FAILED_MAPS));
    assertEquals(1, count(job, JobCounter.TOTAL_LAUNCHED_REDUCES));
    java.util.Map<String, org.apache.hadoop.mapreduce.TaskCompletionEvent.Status> ends = new java.util.HashMap<>();
    for (org.apache.hadoop.mapreduce.TaskCompletionEvent event : job.events(0, 100)) {
      ends.put(event.getTaskAttemptId().toString(), event.getStatus());
    }
    assertEquals(org.apache.hadoop.mapreduce.TaskCompletionEvent.Status.SUCCEEDED, ends.get(twin.idText()));
    assertEquals(org.apache.hadoop.mapreduce.TaskCompletionEvent.Status.KILLED, ends.get(straggler.idText()));
    assertEquals(org.apache.hadoop.mapred.TIPStatus.COMPLETE, job.taskReports(TaskType.MAP)[2].getCurrentStatus());
  }

  @Test
  void aStragglerThatSucceedsAfterItsTwinIsCountedKilledAndItsResultNotTaken() throws Exception {
    JobRun job = speculating(3, 0, conf -> { });
    Attempt straggler = twoMapsDoneAndOneRunning(job, 0.1f);
    Attempt twin = executor.start(true, new ScriptedExecutor.Handle());
    assertTrue(job.attemptSucceeded(twin, none(), () -> { }));
    boolean[] accepted = {false};
    assertFalse(job.attemptSucceeded(straggler, none(), () -> accepted[0] = true), "its twin won");
    assertFalse(accepted[0], "its output is not published");
    executor.runSteps();
    assertEquals(JobStatus.State.SUCCEEDED, job.status().getState());
    assertEquals(1, count(job, JobCounter.NUM_KILLED_MAPS));
    assertEquals(4, count(job, JobCounter.TOTAL_LAUNCHED_MAPS));
  }

  @Test
  void tasksThatKeepUpGetNoSpeculativeAttemptAndTheCountsStayAsTheyWere() throws Exception {
    JobRun job = speculating(3, 1, conf -> { });
    Attempt m0 = executor.start(true, new ScriptedExecutor.Handle(0.01f));
    Attempt m1 = executor.start(true, new ScriptedExecutor.Handle());
    Attempt m2 = executor.start(true, new ScriptedExecutor.Handle(0.95f));
    clock.set(5 * SECOND);
    job.watch(System.nanoTime());
    assertEquals(0, queued(true), "no estimate before a map has succeeded");
    clock.set(6 * SECOND);
    assertTrue(job.attemptSucceeded(m0, none(), () -> { }));
    assertTrue(job.attemptSucceeded(m1, none(), () -> { }));
    clock.set(6 * SECOND + SECOND / 2);
    job.watch(System.nanoTime()); // map 2 should end at 6.8 s, a new attempt at 12.5 s
    assertEquals(0, queued(true), "a map that ends before a new attempt would is left alone");
    assertTrue(job.attemptSucceeded(m2, none(), () -> { }));
    assertTrue(job.attemptSucceeded(executor.start(false, new ScriptedExecutor.Handle()), none(), () -> { }));
    executor.runSteps();
    assertEquals(JobStatus.State.SUCCEEDED, job.status().getState());
    assertEquals(3, count(job, JobCounter.TOTAL_LAUNCHED_MAPS));
    assertEquals(0, count(job, JobCounter.NUM_KILLED_MAPS));
  }

  @Test
  void theJobsKeysTurnSpeculationOffPerTaskTypeAndTheEmbeddedEngineNeverSpeculates() throws Exception {
    JobRun noMaps = speculating(3, 1, conf -> conf.setBoolean("mapreduce.map.speculative", false));
    twoMapsDoneAndOneRunning(noMaps, 0.1f);
    assertEquals(0, queued(true), "mapreduce.map.speculative=false");
    noMaps.terminate("done with it");
    executor.runSteps();

    clock.set(0);
    JobRun noReduces = speculating(1, 2, conf -> conf.setBoolean("mapreduce.reduce.speculative", false));
    assertTrue(noReduces.attemptSucceeded(executor.start(true, new ScriptedExecutor.Handle()), none(), () -> { }));
    Attempt r0 = executor.start(false, new ScriptedExecutor.Handle());
    executor.start(false, new ScriptedExecutor.Handle(0.1f));
    clock.set(SECOND);
    assertTrue(noReduces.attemptSucceeded(r0, none(), () -> { }));
    clock.set(2 * SECOND);
    noReduces.watch(System.nanoTime());
    assertEquals(0, queued(false), "mapreduce.reduce.speculative=false");
    noReduces.terminate("done with it");
    executor.runSteps();

    clock.set(0);
    executor.speculates = false;
    JobRun embedded = new JobRun(staged(3, 1), executor, finished::incrementAndGet);
    embedded.clock(clock::get);
    embedded.start();
    executor.runSteps();
    twoMapsDoneAndOneRunning(embedded, 0.1f);
    assertEquals(0, queued(true), "where attempts share one JVM's slots (the embedded engine), as the LocalJobRunner");
  }

  @Test
  void aStragglingReduceGetsATwinAndOnlyOneOfThemMayCommit() throws Exception {
    JobRun job = speculating(1, 2, conf -> { });
    assertTrue(job.attemptSucceeded(executor.start(true, new ScriptedExecutor.Handle()), none(), () -> { }));
    Attempt r0 = executor.start(false, new ScriptedExecutor.Handle());
    Attempt straggler = executor.start(false, new ScriptedExecutor.Handle(0.1f));
    clock.set(SECOND);
    assertTrue(job.attemptSucceeded(r0, none(), () -> { }));
    clock.set(2 * SECOND);
    job.watch(System.nanoTime());
    Attempt twin = executor.start(false, new ScriptedExecutor.Handle());
    assertEquals(straggler.task(), twin.task());
    assertTrue(job.mayCommit(twin), "the first to ask commits");
    assertTrue(job.mayCommit(twin), "and may ask again");
    assertFalse(job.mayCommit(straggler), "its twin commits");
    job.attemptFailed(straggler, none(), new IOException("may not commit")); // as the refused attempt ends
    assertEquals(1, count(job, JobCounter.NUM_KILLED_REDUCES), "refused, it is killed, as Hadoop kills it");
    assertEquals(0, count(job, JobCounter.NUM_FAILED_REDUCES));
    assertEquals(0, queued(false), "its twin goes on");
    job.attemptFailed(twin, none(), new IOException("the twin's commit failed"));
    Attempt third = executor.start(false, new ScriptedExecutor.Handle());
    assertEquals(twin.task(), third.task(), "no attempt of the task left: it runs again");
    assertTrue(job.mayCommit(third), "once the committing attempt failed, another may commit");
    assertTrue(job.attemptSucceeded(third, none(), () -> { }));
    executor.runSteps();
    assertEquals(JobStatus.State.SUCCEEDED, job.status().getState());
    assertEquals(4, count(job, JobCounter.TOTAL_LAUNCHED_REDUCES));
    assertEquals(1, count(job, JobCounter.NUM_FAILED_REDUCES));
    assertEquals(1, count(job, JobCounter.NUM_KILLED_REDUCES));
  }

  @Test
  void afterASpeculationTheNextWaitsRetryAfterSpeculateAndTheCapsBound() throws Exception {
    JobRun job = speculating(4, 0, conf -> conf.setInt("mapreduce.job.speculative.minimum-allowed-tasks", 2));
    Attempt m0 = executor.start(true, new ScriptedExecutor.Handle());
    for (int i = 0; i < 3; i++) {
      executor.start(true, new ScriptedExecutor.Handle(0.1f));
    }
    clock.set(SECOND);
    assertTrue(job.attemptSucceeded(m0, none(), () -> { }));
    clock.set(2 * SECOND);
    job.watch(System.nanoTime());
    assertEquals(1, queued(true), "one map per check");
    executor.start(true, new ScriptedExecutor.Handle());
    clock.set(2 * SECOND + 14 * SECOND);
    job.watch(System.nanoTime());
    assertEquals(0, queued(true), "mapreduce.job.speculative.retry-after-speculate: 15 s");
    clock.set(2 * SECOND + 15 * SECOND);
    job.watch(System.nanoTime());
    assertEquals(1, queued(true), "the next, 15 s later");
    executor.start(true, new ScriptedExecutor.Handle());
    clock.set(60 * SECOND);
    job.watch(System.nanoTime());
    assertEquals(0, queued(true), "no third: mapreduce.job.speculative.minimum-allowed-tasks=2 (and the caps of 4 maps)");
    assertEquals(6, count(job, JobCounter.TOTAL_LAUNCHED_MAPS));
  }

  private static AttemptCounters none() {
    return new AttemptCounters();
  }

  @Test
  void mapsRunningAgainWhenEveryReduceIsDoneAreStoppedAndTheJobCommits() throws Exception {
    JobRun job = started(2, 1);
    Attempt m0 = executor.start(true, new ScriptedExecutor.Handle());
    Attempt m1 = executor.start(true, new ScriptedExecutor.Handle());
    assertTrue(job.attemptSucceeded(m0, none(), () -> { }));
    assertTrue(job.attemptSucceeded(m1, none(), () -> { }));
    Attempt reduce = executor.start(false, new ScriptedExecutor.Handle());
    job.mapOutputsLost(new int[] {0}); // after the reduce fetched it, say
    ScriptedExecutor.Handle rerunHandle = new ScriptedExecutor.Handle();
    Attempt rerun = executor.start(true, rerunHandle);
    job.mapOutputsLost(new int[] {1});
    assertEquals(1, executor.launches.size(), "map 1 queued again");
    assertTrue(job.attemptSucceeded(reduce, none(), () -> { }));
    assertTrue(rerunHandle.stopAsked, "the map running again is stopped: no reduce needs it");
    assertEquals(0, executor.launches.size(), "and the one queued is dropped");
    assertFalse(job.attemptSucceeded(rerun, none(), () -> { }), "its late result is not taken");
    executor.runSteps(); // commit
    assertEquals(JobStatus.State.SUCCEEDED, job.status().getState());
    assertEquals(1, finished.get());
    assertEquals(0, job.counters().findCounter(JobCounter.NUM_FAILED_MAPS).getValue());
  }

  @Test
  void aKillWhileTheJobCommitsLetsTheCommitDecide() throws Exception {
    JobRun job = started(1, 0);
    assertTrue(job.attemptSucceeded(executor.start(true, new ScriptedExecutor.Handle()), none(), () -> { }));
    assertTrue(executor.hasSteps(), "the commit is queued");
    job.terminate("killed by the test while it commits");
    executor.runSteps();
    assertEquals(JobStatus.State.SUCCEEDED, job.status().getState());
    assertEquals(1, finished.get(), "the job ends once");
    assertEquals(1, executor.closed);
  }

  /** A text output format whose job commit fails. */
  public static class FailingCommitOutputFormat extends TextOutputFormat<Object, Object> {
    @Override
    public synchronized OutputCommitter getOutputCommitter(TaskAttemptContext context) throws IOException {
      return new FileOutputCommitter(getOutputPath(context), context) {
        @Override
        public void commitJob(JobContext job) throws IOException {
          throw new IOException("the test's commit fails");
        }
      };
    }
  }

  @Test
  void aJobWhoseCommitFailsEndsFailedEvenWhenKilledMeanwhile() throws Exception {
    JobRun job = new JobRun(staged(1, 0, conf -> conf.set("mapreduce.job.outputformat.class",
        FailingCommitOutputFormat.class.getName())), executor, finished::incrementAndGet);
    job.start();
    executor.runSteps();
    assertTrue(job.attemptSucceeded(executor.start(true, new ScriptedExecutor.Handle()), none(), () -> { }));
    job.terminate("killed by the test while it commits");
    executor.runSteps(); // the commit, which fails, then the abort
    assertEquals(JobStatus.State.FAILED, job.status().getState());
    assertTrue(job.status().getFailureInfo().contains("the test's commit fails"), job.status().getFailureInfo());
    assertEquals(1, finished.get());
  }

  @Test
  void anAttemptLostBeforeItRanNeverRunsAndItsTaskRunsAgain() throws Exception {
    JobRun job = started(1, 0);
    TaskInProgress task = executor.launches.poll();
    Attempt attempt = job.attemptStarting(task);
    job.attemptLost(attempt, none(), "its executor was lost");
    assertFalse(job.attemptRunning(attempt, new ScriptedExecutor.Handle(), "slot"), "a lost attempt does not run");
    assertEquals(0, job.runningTasks(TaskType.MAP));
    Attempt again = executor.start(true, new ScriptedExecutor.Handle());
    assertEquals(1, again.id().getId(), "the task's next attempt");
    assertTrue(job.attemptSucceeded(again, none(), () -> { }));
    executor.runSteps();
    assertEquals(JobStatus.State.SUCCEEDED, job.status().getState());
    assertEquals(1, job.counters().findCounter(JobCounter.NUM_KILLED_MAPS).getValue());
  }

  @Test
  void aLaunchWaitingAgainAfterItsExecutorWasLostIsTheTasksOnlyNextAttempt() throws Exception {
    JobRun job = speculating(3, 0, conf -> { });
    Attempt straggler = twoMapsDoneAndOneRunning(job, 0.1f);
    assertEquals(1, queued(true), "a speculative attempt of the straggler is launched");
    TaskInProgress task = executor.launches.poll();
    Attempt made = job.attemptStarting(task);
    job.launchWaitsAgain(made); // what the dispatcher does when the executor it was made for is lost
    executor.launch(task, true);
    job.attemptFailed(straggler, none(), new IOException("the straggler fails"));
    assertEquals(1, queued(true), "the waiting launch runs the task again, no other");
    assertFalse(job.attemptRunning(made, new ScriptedExecutor.Handle(), "slot"), "the attempt made for the lost executor never runs");
    Attempt again = executor.start(true, new ScriptedExecutor.Handle());
    assertTrue(job.attemptSucceeded(again, none(), () -> { }));
    executor.runSteps();
    assertEquals(JobStatus.State.SUCCEEDED, job.status().getState());
    assertEquals(0, queued(true));
  }

  @Test
  void eachAttemptsDiagnosticsAreItsOwnAndTheFailureNamesTheTask() throws Exception {
    JobRun job = started(1, 0);
    for (int i = 0; i < 4; i++) {
      Attempt attempt = executor.start(true, new ScriptedExecutor.Handle());
      job.attemptFailed(attempt, none(), new IOException("failure number " + i));
    }
    executor.runSteps(); // abort
    JobStatus status = job.status();
    assertEquals(JobStatus.State.FAILED, status.getState());
    String task = "task_1_0001_m_000000";
    assertTrue(status.getFailureInfo().startsWith("Task failed " + task), status.getFailureInfo());
    for (int i = 0; i < 4; i++) {
      String[] diagnostics = job.diagnostics(org.apache.hadoop.mapreduce.TaskAttemptID.forName(
          "attempt_1_0001_m_000000_" + i));
      assertEquals(1, diagnostics.length, "attempt " + i + "'s diagnostics: " + String.join(" | ", diagnostics));
      assertTrue(diagnostics[0].contains("failure number " + i), diagnostics[0]);
    }
    assertEquals(4, job.taskReports(TaskType.MAP)[0].getDiagnostics().length, "the task's report has all four");
  }

  @Test
  void aNegativeNumberOfReducesIsRefusedNamingTheKey() throws Exception {
    Submission submission = staged(1, -1);
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> new JobRun(submission, executor, finished::incrementAndGet));
    assertTrue(refused.getMessage().contains("mapreduce.job.reduces=-1"), refused.getMessage());
  }

  @Test
  void aStatusKeepsItsFailureAndWhatTheJobWaitsForOverTheWire() throws Exception {
    JobRun job = started(1, 0);
    job.waitingFor("1 tasks wait for a slot: the session has 0 executors");
    JobStatus waiting = roundTrip(job.status());
    assertEquals("1 tasks wait for a slot: the session has 0 executors", waiting.getSchedulingInfo());
    job.terminate("Job killed by the test");
    executor.runSteps(); // abort
    JobStatus killed = roundTrip(job.status());
    assertEquals(JobStatus.State.KILLED, killed.getState());
    assertEquals("Job killed by the test", killed.getFailureInfo());
    assertEquals("", killed.getSchedulingInfo(), "an ended job waits for nothing");
  }

  private static JobStatus roundTrip(JobStatus status) throws IOException {
    DataOutputBuffer out = new DataOutputBuffer();
    status.write(out);
    JobStatusSnapshot back = new JobStatusSnapshot();
    DataInputBuffer in = new DataInputBuffer();
    in.reset(out.getData(), out.getLength());
    back.readFields(in);
    assertNotNull(back.getJobID());
    assertArrayEquals(new byte[0], new byte[in.available()], "read to its end");
    return back;
  }
}
