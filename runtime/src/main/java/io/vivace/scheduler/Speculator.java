package io.vivace.scheduler;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * When to give a slow task a second, speculative attempt: MapReduce on YARN's policy (its
 * application master's default speculator and task run time estimator), read from the same keys
 * with the same defaults. Every check (at most every {@code mapreduce.job.speculative.retry-after-*}
 * ms), per task type whose speculation is on ({@code mapreduce.map.speculative},
 * {@code mapreduce.reduce.speculative}) and none of whose tasks waits for a slot:
 * <ul>
 *   <li>nothing until at least one task of the type and 5% of them have succeeded;</li>
 *   <li>a task with one attempt running is expected to end at its start plus its elapsed time over
 *       its progress; a new attempt, now plus the mean run time of the type's tasks that
 *       succeeded (each task's first success); the task whose expected end lies furthest beyond a
 *       new attempt's gets one, if it has shown progress;</li>
 *   <li>only while fewer tasks of the type run two attempts than the larger of
 *       {@code minimum-allowed-tasks}, {@code speculative-cap-total-tasks} of the type's tasks and
 *       {@code speculative-cap-running-tasks} of those running.</li>
 * </ul>
 * At most one map and one reduce per check. Guarded by its {@link JobRun}.
 */
final class Speculator {

  /** The job's speculation keys. */
  record Settings(boolean maps, boolean reduces, double capRunning, double capTotal, int minimumAllowed,
                  long retryAfterNoSpeculateMillis, long retryAfterSpeculateMillis) {

    static Settings of(JobConf conf) {
      return new Settings(conf.getBoolean(MRJobConfig.MAP_SPECULATIVE, true),
          conf.getBoolean(MRJobConfig.REDUCE_SPECULATIVE, true),
          conf.getDouble(MRJobConfig.SPECULATIVECAP_RUNNING_TASKS, MRJobConfig.DEFAULT_SPECULATIVECAP_RUNNING_TASKS),
          conf.getDouble(MRJobConfig.SPECULATIVECAP_TOTAL_TASKS, MRJobConfig.DEFAULT_SPECULATIVECAP_TOTAL_TASKS),
          conf.getInt(MRJobConfig.SPECULATIVE_MINIMUM_ALLOWED_TASKS,
              MRJobConfig.DEFAULT_SPECULATIVE_MINIMUM_ALLOWED_TASKS),
          conf.getLong(MRJobConfig.SPECULATIVE_RETRY_AFTER_NO_SPECULATE,
              MRJobConfig.DEFAULT_SPECULATIVE_RETRY_AFTER_NO_SPECULATE),
          conf.getLong(MRJobConfig.SPECULATIVE_RETRY_AFTER_SPECULATE,
              MRJobConfig.DEFAULT_SPECULATIVE_RETRY_AFTER_SPECULATE));
    }

    boolean any() {
      return maps || reduces;
    }
  }

  /** Run times of a type's tasks that succeeded, for their mean. */
  private static final class RunTimes {
    long count;
    long totalNanos;

    void add(long nanos) {
      count++;
      totalNanos += nanos;
    }

    long meanNanos() {
      return totalNanos / count;
    }
  }

  private final Settings settings;
  private final RunTimes mapTimes = new RunTimes();
  private final RunTimes reduceTimes = new RunTimes();
  private long nextCheckNanos;
  private boolean checkedOnce;

  Speculator(Settings settings) {
    this.settings = settings;
  }

  /** A task's attempt succeeded at {@code nowNanos}: the task's first success adds its run time. */
  void succeeded(TaskInProgress tip, Attempt attempt, long nowNanos) {
    if (!tip.timed) {
      tip.timed = true;
      (tip.isMap() ? mapTimes : reduceTimes).add(Math.max(0, nowNanos - attempt.runningSinceNanos));
    }
  }

  /** The tasks to give a speculative attempt now: none when it is not time to look again. */
  List<TaskInProgress> choose(TaskInProgress[] maps, int completedMaps, TaskInProgress[] reduces,
                              int completedReduces, long nowNanos) {
    List<TaskInProgress> chosen = new ArrayList<>(2);
    if (!settings.any() || (checkedOnce && nowNanos - nextCheckNanos < 0)) {
      return chosen;
    }
    checkedOnce = true;
    if (settings.maps) {
      addIfAny(chosen, choose(maps, completedMaps, mapTimes, nowNanos));
    }
    if (settings.reduces) {
      addIfAny(chosen, choose(reduces, completedReduces, reduceTimes, nowNanos));
    }
    long wait = chosen.isEmpty() ? settings.retryAfterNoSpeculateMillis : settings.retryAfterSpeculateMillis;
    nextCheckNanos = nowNanos + wait * 1_000_000L;
    return chosen;
  }

  private static void addIfAny(List<TaskInProgress> chosen, TaskInProgress tip) {
    if (tip != null) {
      chosen.add(tip);
    }
  }

  private TaskInProgress choose(TaskInProgress[] tips, int completed, RunTimes times, long nowNanos) {
    if (tips.length == 0 || completed < 1 || (float) completed / tips.length < 0.05f || times.count == 0) {
      return null;
    }
    int speculating = 0;
    int running = 0;
    TaskInProgress best = null;
    long bestValue = -1;
    for (TaskInProgress tip : tips) {
      if (tip.queuedLaunches > 0 && !tip.isDone()) {
        return null; // tasks of the type wait for a slot: they go first
      }
      if (tip.isDone() || tip.running.isEmpty()) {
        continue;
      }
      running++;
      if (tip.running.size() > 1) {
        speculating++;
        continue;
      }
      long value = value(tip.running.get(0), times.meanNanos(), nowNanos);
      if (value > bestValue) {
        best = tip;
        bestValue = value;
      }
    }
    double allowed = Math.max(Math.max(settings.minimumAllowed, settings.capTotal * tips.length),
        settings.capRunning * running);
    return best != null && (int) allowed > speculating ? best : null;
  }

  /**
   * How much sooner a new attempt would end than the running one is expected to (nanos); negative
   * when it would not, or the running one has shown no progress to estimate from.
   */
  private static long value(Attempt attempt, long meanNanos, long nowNanos) {
    float progress = attempt.handle == null ? 0f : Math.min(1f, attempt.handle.progress());
    long elapsed = nowNanos - attempt.runningSinceNanos;
    if (progress <= 0f || elapsed <= 0) {
      return -1;
    }
    long expectedEnd = attempt.runningSinceNanos + (long) (elapsed / (double) progress);
    long replacementEnd = nowNanos + meanNanos;
    return expectedEnd < nowNanos || replacementEnd >= expectedEnd ? -1 : expectedEnd - replacementEnd;
  }
}
