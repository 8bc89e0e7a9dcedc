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
  /** Attempts running now; guarded by this. */
  private final List<Running> running = new ArrayList<>();

  /** A running attempt, its worker and its unit of work; {@code stopAskedNanos} 0 until stopped. */
  private final class Running implements AttemptHandle {
    final Attempt attempt;
    final AttemptRun run;
    final Thread worker;
    final Runnable unit;
    volatile long stopAskedNanos;
    boolean abandoned;

    Running(Attempt attempt, AttemptRun run, Runnable unit) {
      this.attempt = attempt;
      this.run = run;
      this.worker = Thread.currentThread();
      this.unit = unit;
    }

    @Override
    public float progress() {
      return run.reporter().getProgress();
    }

    @Override
    public String status() {
      return run.reporter().status();
    }

    @Override
    public long activity() {
      return run.reporter().activity();
    }

    @Override
    public void stop() {
      if (stopAskedNanos == 0) {
        stopAskedNanos = System.nanoTime();
      }
      run.stop();
    }
  }

  LocalJobExecutor(JobRun job, LocalJob local, WorkerPool pool, Runnable onClose) {
    this.job = job;
    this.local = local;
    this.pool = pool;
    this.onClose = onClose;
    this.queue = pool.register();
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
    Running r = new Running(attempt, new AttemptRun(local, attempt.id(), attempt.idText()), unit);
    synchronized (this) {
      running.add(r);
    }
    try {
      if (!job.attemptRunning(attempt, r, r.worker.getName())) {
        return;
      }
      MapOutput output;
      try {
        output = r.run.run();
      } catch (Throwable t) {
        if (!isAbandoned(r)) {
          job.attemptFailed(attempt, r.run.counters(), t);
        }
        return;
      }
      if (isAbandoned(r) || !job.attemptSucceeded(attempt, r.run.counters(), () -> accept(task, output))) {
        r.run.discard(output);
      }
    } finally {
      synchronized (this) {
        running.remove(r);
      }
    }
  }

  private synchronized boolean isAbandoned(Running r) {
    return r.abandoned;
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
    List<Running> overdue = new ArrayList<>();
    synchronized (this) {
      for (Running r : running) {
        long asked = r.stopAskedNanos;
        if (asked != 0 && !r.abandoned && now - asked > graceNanos && pool.abandon(r.worker, r.unit)) {
          r.abandoned = true;
          overdue.add(r);
        }
      }
    }
    for (Running r : overdue) { // outside this lock: the job takes its own
      LOG.warn("Task attempt " + r.attempt.idText() + " did not stop when asked; its thread ("
          + r.worker.getName() + ") is abandoned and a new worker takes its slot");
      job.attemptFailed(r.attempt, r.run.counters(), new CancellationException(
          "task attempt " + r.attempt.idText() + " did not stop when asked and was abandoned"));
    }
  }
}
