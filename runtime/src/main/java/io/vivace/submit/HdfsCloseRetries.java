package io.vivace.submit;

import io.vivace.conf.ValueSources;
import org.apache.hadoop.conf.Configuration;

/**
 * How soon a job's HDFS client asks the NameNode again whether a file it closes is complete. The
 * NameNode completes a file once a DataNode has reported its last block; a client closing a small
 * file usually asks before that report has arrived, and Hadoop's client then sleeps its initial
 * delay, 400 ms, before asking again: a third to a half of the small files written on the
 * mini-cluster took 410-440 ms to close, 10-60 ms with a 10 ms delay. A job's tasks write their
 * output so, once per reduce at least, which made most of a small job's time on a session. Unless
 * the job set either key, the first wait is {@value #FIRST_WAIT_MILLIS} ms and the waits double as
 * Hadoop's do, {@value #RETRIES} times instead of 5, so that a client still waits as long in all
 * (20.5 s against 12.4 s) before it gives up on a block the DataNodes never report.
 */
public final class HdfsCloseRetries {

  static final String FIRST_WAIT = "dfs.client.block.write.locateFollowingBlock.initial.delay.ms";
  static final String RETRIES_KEY = "dfs.client.block.write.locateFollowingBlock.retries";
  static final int FIRST_WAIT_MILLIS = 10;
  static final int RETRIES = 11;

  private HdfsCloseRetries() {
  }

  /** Shortens the first wait (and adds retries) in the job configuration {@code conf} unless the job set either. */
  public static void shorten(Configuration conf) {
    if (ValueSources.isHadoopDefault(conf, FIRST_WAIT) && ValueSources.isHadoopDefault(conf, RETRIES_KEY)) {
      conf.setInt(FIRST_WAIT, FIRST_WAIT_MILLIS);
      conf.setInt(RETRIES_KEY, RETRIES);
    }
  }
}
