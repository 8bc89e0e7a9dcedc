package io.vivace.scheduler;

import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;

/**
 * One attempt of a task, as the scheduler knows it: its id, when it started, its executor's handle,
 * and whether it was asked to stop. Guarded by its {@link JobRun}, but for the immutable fields.
 */
public final class Attempt {

  private final TaskInProgress task;
  private final TaskAttemptID id;
  private final String idText;
  private final long startTime;
  AttemptHandle handle;
  /** What the attempt showed last, and when that changed (nanos): for {@code mapreduce.task.timeout}. */
  long activity = -1;
  long activityChangedNanos;
  boolean stopAsked;
  /** Asked to stop as killed, not failed: a task kill, its executor lost, a twin that won. */
  boolean killRequested;
  /** When it started running on the speculator's clock (nanos). */
  long runningSinceNanos;
  /** Set when the attempt was stopped for a timeout: the message it fails with. */
  String timeoutMessage;
  /** Whether its end has been recorded (it ends once, whoever reports it). */
  boolean ended;

  Attempt(TaskInProgress task, TaskAttemptID id, String idText, long startTime) {
    this.task = task;
    this.id = id;
    this.idText = idText;
    this.startTime = startTime;
  }

  public TaskAttemptID id() {
    return id;
  }

  /** {@code id().toString()}, formatted once. */
  public String idText() {
    return idText;
  }

  public TaskInProgress task() {
    return task;
  }

  public boolean isMap() {
    return task.id.getTaskType() == TaskType.MAP;
  }

  public long startTime() {
    return startTime;
  }
}
