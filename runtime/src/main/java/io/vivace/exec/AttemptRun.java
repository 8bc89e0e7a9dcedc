package io.vivace.exec;

import io.vivace.counters.AttemptCounters;
import io.vivace.sandbox.TaskScope;
import io.vivace.sandbox.TaskWorkDir;
import io.vivace.shuffle.MapOutput;
import io.vivace.submit.InputSplits;
import io.vivace.submit.Submission;
import io.vivace.task.TaskAttempt;
import io.vivace.task.TaskReporter;
import io.vivace.task.TaskRunner;
import java.io.File;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskType;

/**
 * One task attempt run on the calling thread of this JVM, in its sandbox: the worker's class loader
 * of the job's classes, a scope with the attempt's working directory and exit handling, its split
 * read back, then the map or reduce ({@link TaskRunner}). The same for the embedded engine's
 * workers and for a cluster executor's.
 */
public final class AttemptRun {

  private final LocalJob job;
  private final TaskAttempt attempt;
  private final TaskScope scope;
  private final Thread worker;

  /** An attempt to run on the calling thread (the worker whose class loader it gets). */
  public AttemptRun(LocalJob job, TaskAttemptID id, String idText) {
    this.job = job;
    this.worker = Thread.currentThread();
    Submission submission = job.submission();
    ClassLoader loader = submission.sandbox().loaderFor(worker.getId());
    this.attempt = new TaskAttempt(job.env(), id, idText, loader);
    this.scope = new TaskScope("task " + idText,
        new TaskWorkDir(new File(submission.jobDir(), "tasks/" + idText), submission.resources().links()),
        this::stop);
  }

  public String idText() {
    return attempt.idText();
  }

  /** Makes a reduce read its map outputs from {@code input} (fetched from other hosts). */
  public void readShuffleFrom(io.vivace.shuffle.ShuffleInput input) {
    attempt.readShuffleFrom(input);
  }

  /** The attempt's scratch folder (spills, merges, fetched map outputs that do not fit in memory). */
  public io.vivace.localdisk.ScratchDir scratchDir() {
    return attempt.scratchDir();
  }

  /** Makes the attempt ask {@code permission} before it commits its output. */
  public void commitOnlyIf(io.vivace.task.CommitPermission permission) {
    attempt.commitOnlyIf(permission);
  }

  public TaskReporter reporter() {
    return attempt.reporter();
  }

  public AttemptCounters counters() {
    return attempt.reporter().counters();
  }

  /** Runs the attempt; returns a map's output (null for a reduce or a map-only job's map). */
  public MapOutput run() throws Throwable {
    boolean isMap = attempt.id().getTaskType() == TaskType.MAP;
    try {
      return job.submission().run(attempt.conf().getClassLoader(), scope, () -> {
        Object split = null;
        if (isMap) {
          InputSplits.Split read = job.submission().splits().read(attempt.partition(), attempt.conf(),
              attempt.serializations().factory());
          attempt.reporter().frameworkCounter(TaskCounter.SPLIT_RAW_BYTES).increment(read.rawBytes());
          split = read.split();
        }
        return TaskRunner.run(attempt, split);
      });
    } catch (Throwable t) {
      Throwable exit = scope.exitError(); // an exit from another thread of the task stopped this one
      throw exit != null ? exit : t;
    } finally {
      scope.deleteWorkDir();
    }
  }

  /** Asks the attempt to stop: at its next record, and by interrupt when another thread asks. */
  public void stop() {
    attempt.reporter().kill();
    if (Thread.currentThread() != worker) {
      worker.interrupt();
    }
  }

  /** Drops what an attempt given up on left, if it ever returns. */
  public void discard(MapOutput output) {
    if (output != null) {
      output.release();
    }
    attempt.abort();
  }
}
