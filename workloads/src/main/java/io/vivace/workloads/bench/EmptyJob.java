package io.vivace.workloads.bench;

import io.vivace.workloads.CompletionPoll;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Runs one empty job (the {@link LatencyBench} one: 1 empty split, 1 map, 1 reduce, no output) and
 * exits: timing a fresh {@code ./vivace jar} process that runs it measures a job's cold latency,
 * JVM start and class loading included. It waits with the same 5 ms completion poll on every
 * framework (unless the user sets one), as {@link LatencyBench} does. Exit status 0 when it
 * succeeded.
 */
public class EmptyJob extends Configured implements Tool {

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new EmptyJob(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length != 0) {
      System.err.println("usage: EmptyJob [generic options]");
      return 2;
    }
    try (Job job = LatencyBench.emptyJob(CompletionPoll.timed(getConf()))) {
      if (!job.waitForCompletion(false)) {
        System.err.println("empty job " + job.getJobID() + " failed: " + job.getStatus().getFailureInfo());
        return 1;
      }
    }
    return 0;
  }
}
