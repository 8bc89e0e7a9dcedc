package io.vivace.failure;

import java.io.IOException;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/**
 * Text output through a real {@link FileOutputCommitter} that fails where the job's configuration
 * says ({@code test.fail.setupJob}, {@code test.fail.commitJob}, {@code test.fail.commitTask} for
 * attempt 0 only) and records the state every {@code abortJob} was called with.
 */
public class FlakyCommitterOutputFormat<K, V> extends TextOutputFormat<K, V> {

  static final String FAIL_SETUP_JOB = "test.fail.setupJob";
  static final String FAIL_COMMIT_JOB = "test.fail.commitJob";
  static final String FAIL_COMMIT_TASK = "test.fail.commitTask";

  /** The state of each {@code abortJob} call, in order. */
  static final Queue<JobStatus.State> ABORTS = new ConcurrentLinkedQueue<>();
  static final Queue<String> COMMITTED_TASKS = new ConcurrentLinkedQueue<>();

  private FileOutputCommitter committer;

  @Override
  public synchronized OutputCommitter getOutputCommitter(TaskAttemptContext context) throws IOException {
    if (committer == null) {
      committer = new FlakyCommitter(getOutputPath(context), context);
    }
    return committer;
  }

  static final class FlakyCommitter extends FileOutputCommitter {
    FlakyCommitter(Path output, TaskAttemptContext context) throws IOException {
      super(output, context);
    }

    private static boolean set(JobContext context, String key) {
      Configuration conf = context.getConfiguration();
      return conf.getBoolean(key, false);
    }

    @Override
    public void setupJob(JobContext context) throws IOException {
      if (set(context, FAIL_SETUP_JOB)) {
        throw new IOException("setupJob fails on purpose");
      }
      super.setupJob(context);
    }

    @Override
    public void commitJob(JobContext context) throws IOException {
      if (set(context, FAIL_COMMIT_JOB)) {
        throw new IOException("commitJob fails on purpose");
      }
      super.commitJob(context);
    }

    @Override
    public void commitTask(TaskAttemptContext context) throws IOException {
      if (set(context, FAIL_COMMIT_TASK) && context.getTaskAttemptID().getId() == 0) {
        throw new IOException("commitTask fails on purpose for " + context.getTaskAttemptID());
      }
      super.commitTask(context);
      COMMITTED_TASKS.add(context.getTaskAttemptID().toString());
    }

    @Override
    public void abortJob(JobContext context, JobStatus.State state) throws IOException {
      ABORTS.add(state);
      super.abortJob(context, state);
    }
  }
}
