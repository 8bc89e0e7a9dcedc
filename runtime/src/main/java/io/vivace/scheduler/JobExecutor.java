package io.vivace.scheduler;

/**
 * Where one job's work runs: threads of this JVM ({@code exec/LocalJobExecutor}) or executors on
 * other hosts. The scheduler ({@link JobRun}) says what to run; the executor runs it when it has a
 * slot and reports every attempt's start and end back to the job: {@link JobRun#attemptStarting},
 * {@link JobRun#attemptRunning}, then {@link JobRun#attemptSucceeded} or {@link JobRun#attemptFailed}.
 */
public interface JobExecutor {

  /**
   * Queues a run of {@code task}; its attempt is made when it starts. {@code first}: ahead of the
   * job's queued work (a retry runs before tasks not yet started).
   */
  void launch(TaskInProgress task, boolean first);

  /** Queues a step of the job's own (setup, commit, abort): job code, run where job code may run. */
  void runStep(Runnable step);

  /** Drops the work queued and not started; returns how many items (launches and steps) it dropped. */
  int dropQueued();

  /** The job is over: gives back what its attempts hold where they ran (map outputs, queues). */
  void close();

  /**
   * Whether the job's slow tasks get speculative attempts here, as the job's
   * {@code mapreduce.*.speculative} keys say: where each attempt runs in its own slot on hosts of
   * its own (a session's executors). A job's attempts that may race must each ask
   * {@link JobRun#mayCommit} before they commit.
   */
  default boolean speculates() {
    return false;
  }
}
