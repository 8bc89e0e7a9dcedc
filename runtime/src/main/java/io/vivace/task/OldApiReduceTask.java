package io.vivace.task;

import org.apache.hadoop.mapred.JobConf;
import io.vivace.merge.MergingIterator;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.util.ReflectionUtils;

/** A reduce attempt of a job written against the old {@code mapred} API. */
final class OldApiReduceTask {

  private OldApiReduceTask() {
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static void run(TaskAttempt attempt) throws Exception {
    JobConf job = attempt.conf();
    TaskReporter reporter = attempt.reporter();
    attempt.setupOutput();
    Reducer reducer = ReflectionUtils.newInstance(job.getReducerClass(), job);
    OutputWriters.OldApiDirect out = OutputWriters.oldApiDirect(attempt,
        reporter.frameworkCounter(TaskCounter.REDUCE_OUTPUT_RECORDS));
    try (MergingIterator input = ReduceInput.open(attempt)) {
      OldApiValues values = new OldApiValues(input, job.getOutputValueGroupingComparator(),
          job.getMapOutputKeyClass(), job.getMapOutputValueClass(), attempt.serializations(),
          reporter.frameworkCounter(TaskCounter.REDUCE_INPUT_RECORDS), reporter);
      values.reduceAll(reducer, out, reporter, reporter.frameworkCounter(TaskCounter.REDUCE_INPUT_GROUPS));
      reducer.close();
    } catch (Exception | Error e) {
      org.apache.hadoop.io.IOUtils.closeStream(reducer);
      out.closeQuietly();
      throw e;
    }
    out.close();
  }
}
