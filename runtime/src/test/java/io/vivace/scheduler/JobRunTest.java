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
