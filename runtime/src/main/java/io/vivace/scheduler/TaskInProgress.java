package io.vivace.scheduler;

import io.vivace.counters.AttemptCounters;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.mapred.TIPStatus;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;

/** One map or reduce task of a job across its attempts. Guarded by the owning {@link JobRun}. */
public final class TaskInProgress {

  final org.apache.hadoop.mapred.TaskID id;
  final int index;
  int attempts;
  int failures;
  TIPStatus status = TIPStatus.PENDING;
  /** The attempts running now: one, or two while a speculative attempt races a slow one. */
  final List<Attempt> running = new ArrayList<>(2);
  /** Launches queued and not yet made attempts (a retry, a speculative attempt). */
  int queuedLaunches;
  /** The attempt allowed to commit its output, while it has not ended: the task's only one. */
  Attempt committer;
  /** Whether its run time went into the job's statistics (its first success only). */
  boolean timed;
  long startTime;
  long finishTime;
  /** The successful attempt's counters; converted for a TaskReport only when one is asked for. */
  AttemptCounters counters;
  /** Every ended attempt's diagnostics, in order: the task report's. */
  final List<String> diagnostics = new ArrayList<>();
  /** Each attempt's own, by attempt number: what a client asks for one attempt. */
  final java.util.Map<Integer, String> attemptDiagnostics = new java.util.HashMap<>();

  TaskInProgress(org.apache.hadoop.mapred.TaskID id, int index) {
    this.id = id;
    this.index = index;
  }

  public org.apache.hadoop.mapred.TaskID id() {
    return id;
  }

  /** The task's number among the job's maps or reduces (a map's split, a reduce's partition). */
  public int index() {
    return index;
  }

  public boolean isMap() {
    return id.getTaskType() == TaskType.MAP;
  }

  boolean isDone() {
    return status == TIPStatus.COMPLETE || status == TIPStatus.FAILED || status == TIPStatus.KILLED;
  }

  float progress() {
    if (status == TIPStatus.COMPLETE) {
      return 1f;
    }
    Attempt ahead = leading();
    return ahead == null ? 0f : Math.min(1f, ahead.handle.progress());
  }

  /** The running attempt that got furthest, or null when none runs. */
  Attempt leading() {
    Attempt ahead = null;
    for (Attempt attempt : running) {
      if (attempt.handle != null && (ahead == null || attempt.handle.progress() > ahead.handle.progress())) {
        ahead = attempt;
      }
    }
    return ahead;
  }

  TaskReport report() {
    Attempt ahead = leading();
    String state = ahead != null ? ahead.handle.status() : status.name();
    return new TaskReport(id, progress(), state,
        diagnostics.toArray(new String[0]), status, startTime, finishTime,
        new Counters(counters == null ? new org.apache.hadoop.mapred.Counters() : counters.toCounters()));
  }
}
