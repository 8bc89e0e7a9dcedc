package io.vivace.workloads;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;

/**
 * The client's completion poll for programs that time jobs: {@code Job.waitForCompletion} checks
 * every {@value #KEY} ms (Hadoop's default: 5,000), which would round every job time measured on
 * Apache's runners up to that; Vivace's client picks a few ms itself. Unless the user set it,
 * timed programs use {@value #MILLIS} ms on every framework.
 */
public final class CompletionPoll {

  public static final String KEY = "mapreduce.client.completion.pollinterval";
  public static final int MILLIS = 5;

  private CompletionPoll() {}

  /**
   * A copy of {@code conf} (with mapred-default.xml loaded, so that a user's setting can be told
   * from the default) polling every {@value #MILLIS} ms unless the user chose a value.
   */
  public static JobConf timed(Configuration conf) {
    JobConf timed = new JobConf(conf);
    if (!setByUser(timed)) {
      timed.setInt(KEY, MILLIS);
    }
    return timed;
  }

  public static boolean setByUser(Configuration conf) {
    // where the value was set comes first, then the files it passed through: a file written from a
    // whole configuration (a mini-cluster's client file) carries Hadoop's default on as set there
    // (the same rule as the runtime's conf/ValueSources: workloads are plain Hadoop jobs)
    String[] sources = conf.getPropertySources(KEY);
    return sources != null && sources.length > 0 && !sources[0].endsWith("-default.xml");
  }
}
