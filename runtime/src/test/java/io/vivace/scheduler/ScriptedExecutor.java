package io.vivace.scheduler;

import io.vivace.segment.SegmentCodec;
import io.vivace.submit.Submission;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A {@link JobExecutor} that runs nothing by itself: the test takes each queued launch and says
 * how its attempt went ({@link #start}, then the job's own calls), and runs the job's steps (setup,
 * commit, abort) when it chooses ({@link #runSteps}), on its own thread.
 */
final class ScriptedExecutor implements AttemptExecutor, JobExecutor {

  /** A running attempt's handle that records whether it was asked to stop. */
  static final class Handle implements AttemptHandle {
    volatile boolean stopAsked;
    volatile float progress = 0.5f;

    Handle() {
    }

    Handle(float progress) {
      this.progress = progress;
    }

    @Override
    public float progress() {
      return progress;
    }

    @Override
    public String status() {
      return "running";
    }

    @Override
    public long activity() {
      return 1;
    }

    @Override
    public void stop() {
      stopAsked = true;
    }
  }

  final Deque<TaskInProgress> launches = new ArrayDeque<>();
  private final List<Runnable> steps = new ArrayList<>();
  int closed;
  /** Whether jobs speculate here, as on a session's executors. */
  boolean speculates;
  private JobRun job;

  @Override
  public JobExecutor forJob(JobRun job, Submission submission, SegmentCodec mapOutputCodec) {
    this.job = job;
    return this;
  }

  @Override
  public synchronized void launch(TaskInProgress task, boolean first) {
    if (first) {
      launches.addFirst(task);
    } else {
      launches.addLast(task);
    }
  }

  @Override
  public synchronized void runStep(Runnable step) {
    steps.add(step);
  }

  @Override
  public synchronized int dropQueued() {
    int n = launches.size();
    launches.clear();
    return n;
  }

  @Override
  public synchronized void close() {
    closed++;
  }

  @Override
  public boolean speculates() {
    return speculates;
  }

  /** Runs the job's queued steps, and those they queue, until there are none. */
  void runSteps() {
    while (true) {
      Runnable step;
      synchronized (this) {
        if (steps.isEmpty()) {
          return;
        }
        step = steps.remove(0);
      }
      step.run();
    }
  }

  synchronized boolean hasSteps() {
    return !steps.isEmpty();
  }

  /** Takes the next launch of a map ({@code map}) or a reduce and makes its attempt run. */
  Attempt start(boolean map, Handle handle) {
    TaskInProgress task;
    synchronized (this) {
      task = launches.stream().filter(t -> t.isMap() == map).findFirst()
          .orElseThrow(() -> new AssertionError("no " + (map ? "map" : "reduce") + " launch queued: " + launches));
      launches.remove(task);
    }
    Attempt attempt = job.attemptStarting(task);
    if (attempt != null && !job.attemptRunning(attempt, handle, "slot")) {
      return null;
    }
    return attempt;
  }
}
