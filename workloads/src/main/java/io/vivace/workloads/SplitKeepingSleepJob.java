package io.vivace.workloads;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.SleepJob;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.util.ToolRunner;

/**
 * Apache's {@link SleepJob} (same mapper, reducer, arguments) with an input format that takes the
 * number of maps from its own key. Apache's local runner overwrites {@code mapreduce.job.maps}
 * with 1, which SleepJob's own input format reads, so {@code sleep -m 5000} would run one map
 * there; with this job both systems run the maps asked for.
 *
 * <p>Its job jar is this class's (the workloads jar), which holds its input format; SleepJob's
 * mapper and reducer come from Apache's jobclient tests jar, which a Hadoop installation has on
 * every task's class path ({@code share/hadoop/mapreduce}) and {@code ./vivace classpath} ends with.
 */
public class SplitKeepingSleepJob extends SleepJob {

  /** The number of maps, set from {@code -m}. */
  public static final String MAPS = "vivace.sleep.maps";

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new SplitKeepingSleepJob(), args));
  }

  @Override
  public Job createJob(int numMapper, int numReducer, long mapSleepTime, int mapSleepCount,
                       long reduceSleepTime, int reduceSleepCount, String name) throws IOException {
    Job job = super.createJob(numMapper, numReducer, mapSleepTime, mapSleepCount, reduceSleepTime,
        reduceSleepCount, name);
    job.getConfiguration().setInt(MAPS, numMapper);
    job.setInputFormatClass(SplitCountInputFormat.class);
    // SleepJob names its own jar, which lacks the input format above.
    job.setJarByClass(SplitKeepingSleepJob.class);
    return job;
  }

  /** SleepJob's input format, asked for {@value #MAPS} splits instead of mapreduce.job.maps. */
  public static class SplitCountInputFormat extends SleepInputFormat {
    @Override
    public List<InputSplit> getSplits(JobContext context) {
      Configuration conf = new Configuration(context.getConfiguration());
      conf.setInt(MRJobConfig.NUM_MAPS, conf.getInt(MAPS, 1));
      return super.getSplits(new JobContextImpl(conf, context.getJobID()));
    }
  }
}
