package io.vivace.exec;

import io.vivace.scheduler.AttemptExecutor;
import io.vivace.scheduler.JobExecutor;
import io.vivace.scheduler.JobRun;
import io.vivace.segment.SegmentCodec;
import io.vivace.shuffle.ShuffleMemory;
import io.vivace.submit.Submission;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Attempts run on the warm worker threads of this JVM ({@link WorkerPool}), their map outputs in
 * its shuffle budget ({@link ShuffleMemory}): the embedded engine's executor.
 */
public final class LocalExecutor implements AttemptExecutor {

  private final WorkerPool pool;
  private final ShuffleMemory shuffleMemory;
  private final Set<LocalJobExecutor> jobs = ConcurrentHashMap.newKeySet();

  public LocalExecutor(WorkerPool pool, ShuffleMemory shuffleMemory) {
    this.pool = pool;
    this.shuffleMemory = shuffleMemory;
  }

  @Override
  public JobExecutor forJob(JobRun job, Submission submission, SegmentCodec mapOutputCodec) {
    LocalJobExecutor[] executor = new LocalJobExecutor[1];
    executor[0] = new LocalJobExecutor(job, new LocalJob(submission, shuffleMemory, mapOutputCodec, true), pool,
        () -> jobs.remove(executor[0]));
    jobs.add(executor[0]);
    return executor[0];
  }

  /** Gives up on attempts asked to stop more than {@code graceNanos} ago that have not. */
  public void watch(long now, long graceNanos) {
    for (LocalJobExecutor job : jobs) {
      job.watch(now, graceNanos);
    }
  }
}
