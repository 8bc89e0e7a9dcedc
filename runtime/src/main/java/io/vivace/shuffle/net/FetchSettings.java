package io.vivace.shuffle.net;

import io.vivace.conf.VivaceConf;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * How a reduce fetches its map outputs from other hosts (docs/shuffle.md, "Keys").
 *
 * @param parallelCopies fetches under way at once ({@code mapreduce.reduce.shuffle.parallelcopies})
 * @param connectTimeoutMs how long one try waits to connect ({@code vivace.shuffle.fetch.connect.timeout.ms})
 * @param readTimeoutMs how long one try waits for the answer, and then for each of its next bytes
 *     ({@code mapreduce.reduce.shuffle.read.timeout})
 * @param retries tries after the first before a map's output is declared lost ({@code vivace.shuffle.fetch.retries})
 * @param retryIntervalMs the wait before the first retry, doubled before each next one
 *     ({@code vivace.shuffle.fetch.retry.interval.ms})
 */
public record FetchSettings(int parallelCopies, long connectTimeoutMs, long readTimeoutMs, int retries,
                            long retryIntervalMs) {

  /** Hadoop's default for {@code mapreduce.reduce.shuffle.read.timeout}: 3 minutes. */
  private static final int DEFAULT_READ_TIMEOUT_MS = 180_000;

  public FetchSettings {
    positive(MRJobConfig.SHUFFLE_PARALLEL_COPIES, parallelCopies);
    positive("vivace.shuffle.fetch.connect.timeout.ms", connectTimeoutMs);
    positive(MRJobConfig.SHUFFLE_READ_TIMEOUT, readTimeoutMs);
    if (retries < 0) {
      throw new IllegalArgumentException("vivace.shuffle.fetch.retries=" + retries + ": must be 0 or more");
    }
    if (retryIntervalMs < 0) {
      throw new IllegalArgumentException("vivace.shuffle.fetch.retry.interval.ms=" + retryIntervalMs
          + ": must be 0 or more");
    }
  }

  private static void positive(String key, long value) {
    if (value <= 0) {
      throw new IllegalArgumentException(key + "=" + value + ": must be more than 0");
    }
  }

  /** The settings of a job (a reduce attempt's configuration); a bad value fails naming its key. */
  public static FetchSettings of(Configuration conf) {
    return new FetchSettings(conf.getInt(MRJobConfig.SHUFFLE_PARALLEL_COPIES, 5),
        VivaceConf.getLong(conf, "vivace.shuffle.fetch.connect.timeout.ms"),
        conf.getInt(MRJobConfig.SHUFFLE_READ_TIMEOUT, DEFAULT_READ_TIMEOUT_MS),
        VivaceConf.getInt(conf, "vivace.shuffle.fetch.retries"),
        VivaceConf.getLong(conf, "vivace.shuffle.fetch.retry.interval.ms"));
  }

  /** The wait before retry {@code retry} (1 for the first): the interval doubled each time, at most a minute. */
  long backoffMs(int retry) {
    long wait = retryIntervalMs;
    for (int i = 1; i < retry && wait < 60_000; i++) {
      wait *= 2;
    }
    return Math.min(wait, 60_000);
  }
}
