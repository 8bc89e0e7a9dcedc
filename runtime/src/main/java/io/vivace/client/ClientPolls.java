package io.vivace.client;

import io.vivace.conf.ValueSources;
import org.apache.hadoop.conf.Configuration;

/**
 * How often Hadoop's job client asks about a job on Vivace: Hadoop's 1 s / 5 s defaults would be pure
 * latency for an in-process engine or a session. The progress monitor sleeps its interval between two
 * looks at the job, so its interval is how late a printing client sees the end (20 ms: 44 ms off an
 * embedded WordCount's command at the median against 100 ms); it also asks for task events each
 * time, one call of a session's, so it polls less often than the silent wait for the end does. A
 * value the user set is kept; Hadoop's default is shortened whatever file carried it on
 * ({@link ValueSources}).
 */
public final class ClientPolls {

  public static final String PROGRESS_POLL = "mapreduce.client.progressmonitor.pollinterval";
  public static final String COMPLETION_POLL = "mapreduce.client.completion.pollinterval";
  public static final int PROGRESS_POLL_MILLIS = 20;
  public static final int COMPLETION_POLL_MILLIS = 5;

  private ClientPolls() {
  }

  /** Shortens both polls where {@code conf} holds Hadoop's defaults. */
  public static void shorten(Configuration conf) {
    shorten(conf, PROGRESS_POLL, PROGRESS_POLL_MILLIS);
    shorten(conf, COMPLETION_POLL, COMPLETION_POLL_MILLIS);
  }

  /** Sets {@code key} to {@code millis} where it holds Hadoop's default. */
  static void shorten(Configuration conf, String key, int millis) {
    if (ValueSources.isHadoopDefault(conf, key)) {
      conf.setInt(key, millis);
    }
  }
}
