package io.vivace.task;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.JobConf;
import io.vivace.merge.MergingIterator;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.task.ReduceContextImpl;
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
    String name = TaskNames.oldApiOutputName(attempt.partition());
    OutputWriters.OldApiDirect out = new OutputWriters.OldApiDirect(
        job.getOutputFormat().getRecordWriter(FileSystem.get(job), job, name, reporter), reporter,
        reporter.getCounter(TaskCounter.REDUCE_OUTPUT_RECORDS), job);
    try (MergingIterator input = ReduceInput.open(attempt)) {
      // Hadoop's own grouping: one call per run of keys equal under the grouping comparator.
      ReduceContextImpl groups = new ReduceContextImpl(job, attempt.id(), input,
          reporter.getCounter(TaskCounter.REDUCE_INPUT_GROUPS),
          reporter.getCounter(TaskCounter.REDUCE_INPUT_RECORDS), null, null, reporter,
          (RawComparator) job.getOutputValueGroupingComparator(), job.getMapOutputKeyClass(),
          job.getMapOutputValueClass());
      try {
        while (groups.nextKey()) {
          reducer.reduce(groups.getCurrentKey(), groups.getValues().iterator(), out, reporter);
        }
      } finally {
        reducer.close();
      }
      out.close();
    }
  }
}
