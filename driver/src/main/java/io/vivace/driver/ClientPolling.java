package io.vivace.driver;

import io.vivace.client.ClientPolls;
import org.apache.hadoop.conf.Configuration;

/**
 * The same job-client polling for every engine, so a comparison measures the engines and not how
 * often Hadoop's client asks whether a job is done: its defaults (a progress line every 1 s, a
 * completion check every 5 s) would add up to a second or more to each job on Apache's runners,
 * while Vivace's provider shortens them ({@link ClientPolls}); the other engines get the same. A
 * value the user sets is kept.
 */
final class ClientPolling {

  static final String PROGRESS_POLL = ClientPolls.PROGRESS_POLL;
  static final String COMPLETION_POLL = ClientPolls.COMPLETION_POLL;
  static final int PROGRESS_POLL_MILLIS = ClientPolls.PROGRESS_POLL_MILLIS;
  static final int COMPLETION_POLL_MILLIS = ClientPolls.COMPLETION_POLL_MILLIS;

  private ClientPolling() {}

  static void equalise(Configuration conf) {
    ClientPolls.shorten(conf);
  }
}
