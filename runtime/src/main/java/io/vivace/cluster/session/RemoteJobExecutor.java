package io.vivace.cluster.session;

import io.vivace.scheduler.JobExecutor;
import io.vivace.scheduler.JobRun;
import io.vivace.scheduler.TaskInProgress;
import io.vivace.shuffle.net.MapOutputLocation;
import io.vivace.submit.Submission;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.security.Credentials;

/**
 * One job's work in a session: its task launches wait here until the {@link Dispatcher} gives them
 * to executors' free slots; its own steps (setup, commit, abort) run on the application master's
 * threads; where each map's output is, for its reduces. Guarded by the dispatcher's lock, but for
 * the steps.
 */
final class RemoteJobExecutor implements JobExecutor {

  /** A task waiting for a slot, since when (nanos): a map waits a while for a slot near its data. */
  record Launch(TaskInProgress task, long queuedNanos) {
  }

  private final Dispatcher dispatcher;
  private final ExecutorService steps;
  final JobRun job;
  final Submission submission;
  final Credentials credentials;
  final Deque<Launch> queue = new ArrayDeque<>();
  /** Where each map's output is, and the executor holding it; null where none is known. */
  final MapOutputLocation[] mapOutputs;
  final Dispatcher.Executor[] mapOutputHolders;
  /** Attempts given to executors whose ends the dispatcher has not heard. */
  int running;
  /** Since when (nanos) its queued work has waited without being served; 0 when nothing waits. */
  long waitingSinceNanos;
  /** Its attempts that succeeded, and their time from given to reported (nanos) together. */
  private long succeededAttempts;
  private long succeededNanos;

  RemoteJobExecutor(Dispatcher dispatcher, ExecutorService steps, JobRun job, Submission submission,
                    Credentials credentials) {
    this.dispatcher = dispatcher;
    this.steps = steps;
    this.job = job;
    this.submission = submission;
    this.credentials = credentials;
    this.mapOutputs = new MapOutputLocation[submission.splits().count()];
    this.mapOutputHolders = new Dispatcher.Executor[mapOutputs.length];
  }

  String jobId() {
    return job.id().toString();
  }

  @Override
  public void launch(TaskInProgress task, boolean first) {
    dispatcher.queue(this, new Launch(task, System.nanoTime()), first);
  }

  @Override
  public void runStep(Runnable step) {
    steps.execute(step);
  }

  @Override
  public int dropQueued() {
    return dispatcher.drop(this);
  }

  @Override
  public void close() {
    dispatcher.jobClosed(this);
  }

  @Override
  public boolean speculates() {
    return true;
  }

  void attemptTook(long nanos) {
    succeededAttempts++;
    succeededNanos += nanos;
  }

  /** Whether its attempts that succeeded so far took less than {@code nanos} each on average (false if none did). */
  boolean attemptsShorterThan(long nanos) {
    return succeededAttempts > 0 && succeededNanos / succeededAttempts < nanos;
  }

  /** Whether every map's output is on an executor the session has. */
  boolean allMapOutputsKnown() {
    for (MapOutputLocation location : mapOutputs) {
      if (location == null) {
        return false;
      }
    }
    return true;
  }

  /** Where every map's output is, for a reduce. */
  List<MapOutputLocation> mapOutputLocations() {
    List<MapOutputLocation> locations = new ArrayList<>(mapOutputs.length);
    for (MapOutputLocation location : mapOutputs) {
      locations.add(location);
    }
    return locations;
  }
}
