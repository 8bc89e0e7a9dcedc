package io.vivace.commit;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.FileOutputCommitter;
import org.apache.hadoop.mapred.FileOutputFormat;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.TaskAttemptContextImpl;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Creates jobs' and tasks' output committers the way Hadoop does: from the new-API output format,
 * or the old-API {@code mapred.output.committer.class}. Committers are always called with old-API
 * ({@code mapred}) contexts, which both kinds of committer accept.
 */
public final class OutputCommitters {

  private OutputCommitters() {
  }

  /** The job's committer for setup, commit and abort; the API is the reducer's (the mapper's if map-only). */
  public static OutputCommitter forJob(JobConf conf, JobID jobId) throws Exception {
    boolean newApi = conf.getNumReduceTasks() > 0 ? conf.getUseNewReducer() : conf.getUseNewMapper();
    if (!newApi) {
      return conf.getOutputCommitter();
    }
    TaskAttemptContextImpl context = new TaskAttemptContextImpl(conf,
        new TaskAttemptID(org.apache.hadoop.mapred.TaskID.downgrade(
            new TaskID(jobId, TaskType.JOB_SETUP, 0)), 0));
    return ReflectionUtils.newInstance(context.getOutputFormatClass(), conf).getOutputCommitter(context);
  }

  /**
   * A task attempt's committer. Also sets the old-API work output path on the attempt's conf, where
   * old-API file output formats write ({@code mapreduce.task.output.dir}).
   */
  public static OutputCommitter forTask(JobConf conf, TaskAttemptContextImpl committerContext,
                                        org.apache.hadoop.mapreduce.TaskAttemptContext newApiContext,
                                        boolean newApi) throws Exception {
    OutputCommitter committer;
    if (newApi) {
      committer = ReflectionUtils.newInstance(newApiContext.getOutputFormatClass(), conf)
          .getOutputCommitter(newApiContext);
    } else {
      committer = conf.getOutputCommitter();
    }
    Path outputPath = FileOutputFormat.getOutputPath(conf);
    if (outputPath != null) {
      if (committer instanceof FileOutputCommitter fileCommitter) {
        FileOutputFormat.setWorkOutputPath(conf, fileCommitter.getTaskAttemptPath(committerContext));
      } else {
        FileOutputFormat.setWorkOutputPath(conf, outputPath);
      }
    }
    return committer;
  }
}
