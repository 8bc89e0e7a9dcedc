package io.vivace.failure;

import static io.vivace.failure.FailureSupport.LOCAL;
import static io.vivace.failure.FailureSupport.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The output committer failing: in job setup or job commit the job fails (as on LocalJobRunner)
 * and is aborted as FAILED with nothing committed; in a task commit the attempt fails and is
 * retried, and the output is committed exactly once.
 */
@Timeout(120)
class CommitterFailureTest {

  @TempDir
  File root;

  @BeforeEach
  void reset() {
    FlakyCommitterOutputFormat.ABORTS.clear();
    FlakyCommitterOutputFormat.COMMITTED_TASKS.clear();
  }

  private Job job(String framework, String name, File out) throws Exception {
    Configuration conf = FailureSupport.conf(root, framework);
    conf.setInt("mapreduce.map.maxattempts", 2);
    conf.setInt("mapreduce.reduce.maxattempts", 2);
    File in = FailureSupport.inputFiles(new File(root, "in"), 2, 10);
    Job job = FailureSupport.wordCount(conf, name, in, out, 1);
    job.setOutputFormatClass(FlakyCommitterOutputFormat.class);
    return job;
  }

  /**
   * With FileOutputCommitter algorithm 1 nothing reaches the output directory before the job
   * commit; with algorithm 2 (Hadoop 3.4's default) each task commit already moved its files there,
   * so a failed job commit leaves them, on LocalJobRunner as on Vivace; never {@code _SUCCESS} or
   * {@code _temporary}.
   */
  @ParameterizedTest
  @CsvSource({FlakyCommitterOutputFormat.FAIL_SETUP_JOB + ", 1", FlakyCommitterOutputFormat.FAIL_SETUP_JOB + ", 2",
      FlakyCommitterOutputFormat.FAIL_COMMIT_JOB + ", 1", FlakyCommitterOutputFormat.FAIL_COMMIT_JOB + ", 2"})
  void jobSetupOrCommitFailureFailsTheJobAndAbortsIt(String failure, int algorithm) throws Exception {
    String cause = failure.equals(FlakyCommitterOutputFormat.FAIL_SETUP_JOB)
        ? "setupJob fails on purpose" : "commitJob fails on purpose";
    List<String> localLeft = null;
    for (String framework : new String[] {LOCAL, VIVACE}) {
      FlakyCommitterOutputFormat.ABORTS.clear();
      File out = new File(root, "out-" + framework);
      Job job = job(framework, "committer-" + framework, out);
      job.getConfiguration().setBoolean(failure, true);
      job.getConfiguration().setInt("mapreduce.fileoutputcommitter.algorithm.version", algorithm);

      assertFalse(job.waitForCompletion(false), framework + ": the job must fail");
      assertEquals(JobStatus.State.FAILED, job.getJobState(), framework);
      List<String> left = out.exists() ? Arrays.stream(out.list()).sorted().collect(Collectors.toList()) : List.of();
      assertFalse(left.contains("_SUCCESS"), framework + ": " + left);
      assertFalse(left.contains("_temporary"), framework + ": " + left);
      if (algorithm == 1 || failure.equals(FlakyCommitterOutputFormat.FAIL_SETUP_JOB)) {
        FailureSupport.assertNothingCommitted(out);
      }
      if (localLeft == null) {
        localLeft = left;
      } else {
        assertEquals(localLeft, left, "the output directory holds what LocalJobRunner leaves");
      }
      assertEquals(List.of(JobStatus.State.FAILED), new ArrayList<>(FlakyCommitterOutputFormat.ABORTS),
          framework + ": the committer is aborted once, as FAILED");
      if (framework.equals(VIVACE)) {
        String info = job.getStatus().getFailureInfo();
        assertTrue(info.contains(cause), "failure info names the cause: " + info);
        if (failure.equals(FlakyCommitterOutputFormat.FAIL_SETUP_JOB)) {
          assertTrue(FailureSupport.events(job).isEmpty(), "no task runs when setup failed");
        }
        FailureSupport.assertNoLocalFiles(job.getConfiguration(), job.getJobID());
      }
    }
  }

  @Test
  void taskCommitFailureIsRetriedAndTheOutputCommittedOnce() throws Exception {
    File out = new File(root, "out");
    Job job = job(VIVACE, "task-commit", out);
    job.getConfiguration().setBoolean(FlakyCommitterOutputFormat.FAIL_COMMIT_TASK, true);

    assertTrue(job.waitForCompletion(false), () -> FailureSupport.failureInfo(job));
    FailureSupport.assertOutput(FailureSupport.expectedWordCounts(2, 10), out);
    List<TaskCompletionEvent> failed = FailureSupport.events(job, false, TaskCompletionEvent.Status.FAILED);
    assertEquals(1, failed.size(), "the reduce attempt whose commit failed: " + failed);
    assertEquals(0, failed.get(0).getTaskAttemptId().getId());
    assertEquals(1, FlakyCommitterOutputFormat.COMMITTED_TASKS.stream().filter(a -> a.contains("_r_")).count(),
        "one reduce attempt committed: " + FlakyCommitterOutputFormat.COMMITTED_TASKS);
    assertTrue(FlakyCommitterOutputFormat.ABORTS.isEmpty(), "a job that succeeds is not aborted");
  }

  @Test
  void failingTaskAbortsTheJobAsFailed() throws Exception {
    File out = new File(root, "out");
    Job job = job(VIVACE, "task-fails", out);
    job.setMapperClass(TaskRetryTest.ExplodingMapper.class);
    job.setMapOutputValueClass(org.apache.hadoop.io.Text.class);
    assertFalse(job.waitForCompletion(false));
    assertEquals(List.of(JobStatus.State.FAILED), new ArrayList<>(FlakyCommitterOutputFormat.ABORTS));
    FailureSupport.assertNothingCommitted(out);
  }
}
