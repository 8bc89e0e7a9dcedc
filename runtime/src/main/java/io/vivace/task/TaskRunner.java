package io.vivace.task;

import io.vivace.counters.FileSystemCounterTracker;
import io.vivace.sandbox.TaskScope;
import io.vivace.shuffle.MapOutput;
import org.apache.hadoop.mapreduce.TaskType;

/**
 * Runs one task attempt to completion on the calling (worker) thread: the user's map or reduce in
 * the API the job was written for, then the attempt's output commit. On failure the attempt's
 * output and scratch files are removed before the exception propagates.
 */
public final class TaskRunner {

  private TaskRunner() {
  }

  /**
   * @param split the map's input split (new- or old-API object); ignored for reduces
   * @return the map's shuffle output; null for reduces and map-only jobs
   */
  public static MapOutput run(TaskAttempt attempt, Object split) throws Exception {
    FileSystemCounterTracker fileSystems = new FileSystemCounterTracker();
    MapOutput output = null;
    try {
      if (attempt.id().getTaskType() == TaskType.MAP) {
        if (attempt.conf().getUseNewMapper()) {
          output = NewApiMapTask.run(attempt, (org.apache.hadoop.mapreduce.InputSplit) split);
        } else {
          output = OldApiMapTask.run(attempt, (org.apache.hadoop.mapred.InputSplit) split);
        }
      } else if (attempt.conf().getUseNewReducer()) {
        NewApiReduceTask.run(attempt);
      } else {
        OldApiReduceTask.run(attempt);
      }
      TaskScope scope = TaskScope.current();
      if (scope != null) {
        scope.checkNoExit(); // the code caught its exit's error and went on: nothing may be committed
      }
      attempt.commitOutput();
      if (attempt.id().getTaskType() == TaskType.REDUCE) {
        attempt.deleteScratch();
      }
      return output;
    } catch (Exception | Error e) {
      if (output != null) {
        output.release();
      }
      attempt.abort();
      throw e;
    } finally {
      fileSystems.addTo(attempt.reporter().counters());
    }
  }
}
