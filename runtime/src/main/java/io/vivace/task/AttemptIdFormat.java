package io.vivace.task;

import java.text.DecimalFormatSymbols;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;

/**
 * One job's task attempt ids as text, exactly as {@link TaskAttemptID#toString()} writes them
 * ({@code attempt_<jt>_0001_m_000007_0}), with the job's part formatted once: Hadoop formats the
 * job and task numbers with a shared {@link java.text.NumberFormat} on every call, a few percent
 * of a small task's cost. Where the default locale's digits are not ASCII, Hadoop's own
 * formatting is used.
 */
public final class AttemptIdFormat {

  private static final boolean ASCII_DIGITS = DecimalFormatSymbols.getInstance().getZeroDigit() == '0';
  private static final int TASK_DIGITS = 6;

  private final JobID job;
  /** {@code attempt_<jt>_0001_}. */
  private final String prefix;

  public AttemptIdFormat(JobID job) {
    this.job = job;
    this.prefix = "attempt" + job.toString().substring("job".length()) + "_";
  }

  public String format(TaskAttemptID id) {
    TaskID task = id.getTaskID();
    if (!ASCII_DIGITS || !job.equals(task.getJobID()) || task.getId() < 0) {
      return id.toString();
    }
    StringBuilder text = new StringBuilder(prefix.length() + 12)
        .append(prefix)
        .append(TaskID.getRepresentingCharacter(task.getTaskType()))
        .append('_');
    String index = Integer.toString(task.getId());
    for (int i = index.length(); i < TASK_DIGITS; i++) {
      text.append('0');
    }
    return text.append(index).append('_').append(id.getId()).toString();
  }
}
