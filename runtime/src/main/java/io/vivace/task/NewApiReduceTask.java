package io.vivace.task;

import io.vivace.conf.VivaceConf;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.JobConf;
import io.vivace.merge.MergingIterator;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.reduce.WrappedReducer;
import org.apache.hadoop.util.ReflectionUtils;

/** A reduce attempt of a job written against the new {@code mapreduce} API. */
final class NewApiReduceTask {

  private NewApiReduceTask() {
  }

  /** Whether the reduce's output format writes on a thread of its own. */
  static boolean outputThread(TaskAttempt attempt) {
    return VivaceConf.getBoolean(attempt.conf(), "vivace.reduce.output.thread");
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static void run(TaskAttempt attempt) throws Exception {
    JobConf conf = attempt.conf();
    TaskAttemptContext context = attempt.newApiContext();
    TaskReporter reporter = attempt.reporter();
    attempt.setupOutput();
    Reducer reducer = ReflectionUtils.newInstance(context.getReducerClass(), conf);
    try (MergingIterator input = ReduceInput.open(attempt)) {
      OutputWriters.NewApiDirect writer = OutputWriters.newApiDirect(attempt,
          reporter.frameworkCounter(TaskCounter.REDUCE_OUTPUT_RECORDS), outputThread(attempt));
      StreamingReduceContext reduceContext = new StreamingReduceContext(conf, attempt.serializations(), attempt.id(), input,
          reporter.frameworkCounter(TaskCounter.REDUCE_INPUT_GROUPS),
          reporter.frameworkCounter(TaskCounter.REDUCE_INPUT_RECORDS), writer, attempt.committer(), reporter,
          (RawComparator) conf.getOutputValueGroupingComparator(), conf.getMapOutputKeyClass(),
          conf.getMapOutputValueClass());
      Reducer.Context reducerContext = new WrappedReducer().getReducerContext(reduceContext);
      try {
        reducer.run(reducerContext);
      } catch (Exception | Error e) {
        writer.closeQuietly(reducerContext);
        throw e;
      }
      writer.close(reducerContext);
    }
  }
}
