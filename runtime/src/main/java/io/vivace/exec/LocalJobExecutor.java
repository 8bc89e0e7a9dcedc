package io.vivace.exec;

import io.vivace.scheduler.Attempt;
import io.vivace.scheduler.AttemptHandle;
import io.vivace.scheduler.JobExecutor;
import io.vivace.scheduler.JobRun;
import io.vivace.scheduler.TaskInProgress;
import io.vivace.shuffle.MapOutput;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One job's work on the shared worker threads of this JVM: each launch a unit of work on the job's
 * queue in the {@link WorkerPool}, run by {@link AttemptRun}; map outputs stay on this JVM's
 * shuffle ({@link LocalJob}). An attempt asked to stop that has not after the grace is given up on
 * ({@link #watch}): its end is reported, its worker replaced, and whatever it does later dropped.
 */
final class LocalJobExecutor implements JobExecutor {

  private static final Logger LOG = LoggerFactory.getLogger(LocalJobExecutor.class);

  private final JobRun job;
  private final LocalJob local;
  private final WorkerPool pool;
  private final WorkerPool.JobQueue queue;
  private final Runnable onClose;
  private final AttemptThreads<Attempt> running;

  /** A running attempt as the job sees it. */
  private record Running(AttemptThreads<Attempt>.Entry entry) implements AttemptHandle {
    @Override
    public float progress() {
      return entry.run().reporter().getProgress();
    }

    @Override
    public String status() {
      return entry.run().reporter().status();
    }

    @Override
    public long activity() {
      return entry.run().reporter().activity();
    }

    @Override
    public void stop() {
      entry.stop();
    }
  }

  LocalJobExecutor(JobRun job, LocalJob local, WorkerPool pool, Runnable onClose) {
    this.job = job;
    this.local = local;
    this.pool = pool;
    this.onClose = onClose;
    this.queue = pool.register();
    this.running = new AttemptThreads<>(pool);
  }

  @Override
  public void launch(TaskInProgress task, boolean first) {
    Runnable[] unit = new Runnable[1];
    unit[0] = () -> runAttempt(task, unit[0]);
    if (first) {
      pool.enqueueFirst(queue, unit[0]);
    } else {
      pool.enqueue(queue, unit[0]);
    }
  }

  private void runAttempt(TaskInProgress task, Runnable unit) {
    Attempt attempt = job.attemptStarting(task);
    if (attempt == null) {
      return;
    }
    // the attempt's configuration and ids (a good part of a small task's cost) outside the job's
    // lock, which every other worker takes to start and to finish its own attempts
    AttemptRun run = new AttemptRun(local, attempt.id(), attempt.idText());
    AttemptThreads<Attempt>.Entry entry = running.add(run, attempt, unit);
    try {
      if (!job.attemptRunning(attempt, new Running(entry), entry.worker().getName())) {
        return;
      }
      MapOutput output;
      try {
        output = run.run();
      } catch (Throwable t) {
        if (!entry.abandoned()) {
          job.attemptFailed(attempt, run.counters(), t);
        }
        return;
      }
      if (entry.abandoned() || !job.attemptSucceeded(attempt, run.counters(), () -> accept(task, output))) {
        run.discard(output);
      }
    } finally {
      running.remove(entry);
    }
  }

  /** The job took a successful attempt's result: a map's output joins the shuffle, a reduce's partition goes. */
  private void accept(TaskInProgress task, MapOutput output) {
    if (task.isMap()) {
      if (output != null) {
        local.shuffle().publish(task.index(), output);
      }
    } else {
      local.shuffle().releasePartition(task.index());
    }
  }

  @Override
  public void runStep(Runnable step) {
    pool.enqueue(queue, step);
  }

  @Override
  public int dropQueued() {
    return pool.clear(queue);
  }

  @Override
  public void close() {
    local.shuffle().releaseAll();
    pool.unregister(queue);
    onClose.run();
  }

  /** Gives up on attempts asked to stop more than {@code graceNanos} ago that have not. */
  void watch(long now, long graceNanos) {
    for (AttemptThreads<Attempt>.Entry entry : running.abandonOverdue(now, graceNanos)) {
      String id = entry.run().idText();
      LOG.warn("Task attempt " + id + " did not stop when asked; its thread (" + entry.worker().getName()
          + ") is abandoned and a new worker takes its slot");
      job.attemptFailed(entry.attempt(), entry.run().counters(), new CancellationException(
          "task attempt " + id + " did not stop when asked and was abandoned"));
    }
  }
}
