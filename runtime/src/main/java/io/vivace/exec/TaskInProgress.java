package io.vivace.exec;

import io.vivace.counters.AttemptCounters;
import io.vivace.task.TaskAttempt;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.mapred.TIPStatus;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskReport;

/** One map or reduce task of a job across its attempts. Guarded by the owning {@link JobRun}. */
final class TaskInProgress {

  final org.apache.hadoop.mapred.TaskID id;
  final int index;
  int attempts;
  int failures;
  boolean killRequested;
  TIPStatus status = TIPStatus.PENDING;
  TaskAttempt running;
  Thread runningThread;
  /** The pool's unit of work running the attempt (what is abandoned when it will not stop). */
  Runnable runningUnit;
  long runningSince;
  /** The attempt's counters and reports as last seen, and when they last changed (nanos). */
  long activity;
  long activityChangedNanos;
  /** When the attempt was asked to stop (nanos), 0 while it may run on. */
  long stopAskedNanos;
  /** Why the running attempt was stopped for a timeout: its failure message; null otherwise. */
  String timeoutMessage;
  long startTime;
  long finishTime;
  /** The successful attempt's counters; converted for a TaskReport only when one is asked for. */
  AttemptCounters counters;
  final List<String> diagnostics = new ArrayList<>();

  TaskInProgress(org.apache.hadoop.mapred.TaskID id, int index) {
    this.id = id;
    this.index = index;
  }

  boolean isDone() {
    return status == TIPStatus.COMPLETE || status == TIPStatus.FAILED || status == TIPStatus.KILLED;
  }

  float progress() {
    if (status == TIPStatus.COMPLETE) {
      return 1f;
    }
    TaskAttempt attempt = running;
    return attempt == null ? 0f : Math.min(1f, attempt.reporter().getProgress());
  }

  TaskReport report() {
    String state = running != null ? running.reporter().status() : status.name();
    return new TaskReport(id, progress(), state,
        diagnostics.toArray(new String[0]), status, startTime, finishTime,
        new Counters(counters == null ? new org.apache.hadoop.mapred.Counters() : counters.toCounters()));
  }
}
