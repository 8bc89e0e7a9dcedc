package io.vivace.driver;

import org.apache.hadoop.mapred.TIPStatus;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;

/**
 * One task as its framework reported it: {@code status} is SUCCEEDED, FAILED, KILLED, RUNNING or
 * PENDING; times are null where the framework reports none.
 */
public record TaskSnapshot(String taskId, TaskType type, String status, Long startMs,
    Long finishMs) {

  static TaskSnapshot of(TaskReport report, TaskType type) {
    TIPStatus tip = report.getCurrentStatus();
    String status = tip == null ? null : tip == TIPStatus.COMPLETE ? "SUCCEEDED" : tip.name();
    return new TaskSnapshot(String.valueOf(report.getTaskID()), type, status,
        Times.orNull(report.getStartTime()), Times.orNull(report.getFinishTime()));
  }
}
