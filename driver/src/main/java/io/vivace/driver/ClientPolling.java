package io.vivace.driver;

import io.vivace.conf.ValueSources;
import org.apache.hadoop.conf.Configuration;

/**
 * The same job-client polling for every engine, so a comparison measures the engines and not how
 * often Hadoop's client asks whether a job is done: its defaults (a progress line every 1 s, a
 * completion check every 5 s) would add up to a second or more to each job on Apache's runners,
 * while Vivace's provider shortens them to the values below. A value the user sets is kept.
 */
final class ClientPolling {

  static final String PROGRESS_POLL = "mapreduce.client.progressmonitor.pollinterval";
  static final String COMPLETION_POLL = "mapreduce.client.completion.pollinterval";
  static final int PROGRESS_POLL_MILLIS = 100;
  static final int COMPLETION_POLL_MILLIS = 5;

  private ClientPolling() {}

  static void equalise(Configuration conf) {
    setUnlessUserSet(conf, PROGRESS_POLL, PROGRESS_POLL_MILLIS);
    setUnlessUserSet(conf, COMPLETION_POLL, COMPLETION_POLL_MILLIS);
  }

  private static void setUnlessUserSet(Configuration conf, String key, int millis) {
    if (ValueSources.isHadoopDefault(conf, key)) {
      conf.setInt(key, millis);
    }
  }
}
