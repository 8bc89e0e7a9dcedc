package io.vivace.failure;

import static io.vivace.failure.FailureSupport.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several jobs of one JVM on the shared engine: jobs submitted together all succeed with their own
 * outputs, and a short job submitted behind a long one that has queued work completes first: the
 * slots the long job frees are shared, not handed to its queue until it drains.
 */
@Timeout(180)
class ConcurrentJobsTest {

  /** Permits the test hands out: each lets one blocked long-job map finish. */
  static final Semaphore PERMITS = new Semaphore(0);
  static final AtomicInteger LONG_STARTED = new AtomicInteger();
  static final AtomicInteger LONG_FINISHED = new AtomicInteger();

  @TempDir
  File root;

  @BeforeEach
  void reset() {
    PERMITS.drainPermits();
    LONG_STARTED.set(0);
    LONG_FINISHED.set(0);
  }

  /** Jobs this test submitted: none may outlive it (their files are in the test's temporary dir). */
  private final List<Job> submitted = new ArrayList<>();

  @AfterEach
  void releaseStragglers() throws Exception {
    PERMITS.release(10_000); // never leave a blocked task behind, even when a test failed
    for (Job job : submitted) {
      if (!FailureSupport.isComplete(job)) {
        job.killJob();
        FailureSupport.awaitJob(job);
      }
    }
  }

  private Job submit(Job job) throws Exception {
    job.submit();
    submitted.add(job);
    return job;
  }

  /** A long job's map: blocks until the test gives it a permit, then counts words. */
  public static class PermitMapper extends FailureSupport.TokenMapper {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      LONG_STARTED.incrementAndGet();
      if (!PERMITS.tryAcquire(FailureSupport.HANG_GUARD_MILLIS, TimeUnit.MILLISECONDS)) {
        throw new IOException("no permit came: the test gave up");
      }
      super.run(context);
      LONG_FINISHED.incrementAndGet();
    }
  }

  @Test
  void jobsSubmittedTogetherAllSucceedWithTheirOwnOutput() throws Exception {
    int jobCount = 4;
    List<Job> jobs = new ArrayList<>();
    List<File> outs = new ArrayList<>();
    for (int j = 0; j < jobCount; j++) {
      Configuration conf = FailureSupport.conf(root, VIVACE);
      if (j % 2 == 1) {
        conf.setInt("mapreduce.task.io.sort.mb", 1);
      }
      File in = FailureSupport.inputFiles(new File(root, "in-" + j), j + 1, 50 * (j + 1));
      File out = new File(root, "out-" + j);
      Job job = FailureSupport.wordCount(conf, "concurrent-" + j, in, out, 1 + j % 3);
      jobs.add(job);
      outs.add(out);
    }
    for (Job job : jobs) {
      submit(job);
    }
    for (int j = 0; j < jobCount; j++) {
      Job job = jobs.get(j);
      assertTrue(FailureSupport.awaitJob(job), "job " + j + " failed: " + FailureSupport.failureInfo(job));
    }
    List<String> ids = new ArrayList<>();
    for (int j = 0; j < jobCount; j++) {
      FailureSupport.assertOutput(FailureSupport.expectedWordCounts(j + 1, 50 * (j + 1)), outs.get(j));
      ids.add(jobs.get(j).getJobID().toString());
      FailureSupport.assertNoLocalFiles(jobs.get(j).getConfiguration(), jobs.get(j).getJobID());
    }
    assertEquals(jobCount, ids.stream().distinct().count(), "every job has its own id: " + ids);
  }

  @Test
  void failingJobsDoNotDisturbJobsRunningBesideThem() throws Exception {
    int jobCount = 4;
    List<Job> jobs = new ArrayList<>();
    for (int j = 0; j < jobCount; j++) {
      Configuration conf = FailureSupport.conf(root, VIVACE);
      conf.setInt("mapreduce.map.maxattempts", 2);
      conf.set("test.throw", "npe");
      Job job = FailureSupport.wordCount(conf, "mixed-" + j,
          FailureSupport.inputFiles(new File(root, "in-" + j), 3, 20 + j), new File(root, "out-" + j), 2);
      if (j % 2 == 0) {
        job.setMapperClass(TaskRetryTest.ThrowingMapper.class);
      }
      jobs.add(job);
    }
    for (Job job : jobs) {
      submit(job);
    }
    for (int j = 0; j < jobCount; j++) {
      Job job = jobs.get(j);
      File out = new File(root, "out-" + j);
      boolean ok = FailureSupport.awaitJob(job);
      if (j % 2 == 0) {
        assertFalse(ok, "job " + j + " must fail");
        String info = job.getStatus().getFailureInfo();
        assertTrue(info.contains(job.getJobID().toString().substring("job_".length())),
            "the failure info names this job's own task: " + info);
        FailureSupport.assertNothingCommitted(out);
      } else {
        assertTrue(ok, "job " + j + " failed: " + FailureSupport.failureInfo(job));
        FailureSupport.assertOutput(FailureSupport.expectedWordCounts(3, 20 + j), out);
      }
      FailureSupport.assertNoLocalFiles(job.getConfiguration(), job.getJobID());
    }
  }

  @Test
  void shortJobIsNotStarvedByALongJobWithQueuedMaps() throws Exception {
    Configuration conf = FailureSupport.conf(root, VIVACE);
    int slots = FailureSupport.slots(conf);
    // enough queued maps that a scheduler alternating between the jobs lets the short one's few
    // steps (setup, map, reduce, commit) through well before the long job's queue drains
    int longMaps = 3 * slots + 10;

    File longOut = new File(root, "out-long");
    Job longJob = FailureSupport.wordCount(conf, "long",
        FailureSupport.inputFiles(new File(root, "in-long"), longMaps, 4), longOut, 1);
    longJob.setMapperClass(PermitMapper.class);
    submit(longJob);
    FailureSupport.await("the long job's maps to occupy every slot", () -> LONG_STARTED.get() == slots);

    File shortOut = new File(root, "out-short");
    Job shortJob = FailureSupport.wordCount(FailureSupport.conf(root, VIVACE), "short",
        FailureSupport.inputFiles(new File(root, "in-short"), 1, 5), shortOut, 1);
    submit(shortJob);

    // Free one slot at a time. Each freed slot goes either to the short job or to one of the long
    // job's queued maps (which then blocks again). A fair engine lets the short job through long
    // before the long job's queue drains; one that serves jobs in order would not.
    while (!FailureSupport.isComplete(shortJob)) {
      if (LONG_STARTED.get() == longMaps) {
        fail("the short job got no slot while the long job had queued maps: all " + longMaps
            + " long maps started first");
      }
      int startedBefore = LONG_STARTED.get();
      PERMITS.release();
      FailureSupport.await("the freed slot to be used",
          () -> FailureSupport.isComplete(shortJob) || LONG_STARTED.get() > startedBefore);
    }
    assertTrue(shortJob.isSuccessful(), () -> "short job failed: " + FailureSupport.failureInfo(shortJob));
    assertFalse(longJob.isComplete(), "the long job is still running when the short one has completed");
    assertTrue(LONG_STARTED.get() < longMaps, "the long job still had queued maps");
    FailureSupport.assertOutput(FailureSupport.expectedWordCounts(1, 5), shortOut);

    PERMITS.release(longMaps);
    assertTrue(FailureSupport.awaitJob(longJob), () -> "long job failed: " + FailureSupport.failureInfo(longJob));
    assertEquals(longMaps, LONG_FINISHED.get());
    FailureSupport.assertOutput(FailureSupport.expectedWordCounts(longMaps, 4), longOut);
  }
}
