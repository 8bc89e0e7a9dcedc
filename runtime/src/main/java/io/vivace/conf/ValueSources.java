package io.vivace.conf;

import org.apache.hadoop.conf.Configuration;

/**
 * Where a configuration value came from, as Hadoop's {@link Configuration#getPropertySources} tells
 * it: its first source is where it was set, and the files it then passed through follow. A file
 * written from a whole configuration ({@code Configuration.writeXml}: a mini-cluster's client file,
 * a job's {@code job.xml}) records each value's sources, so Hadoop's defaults it carries still name
 * their {@code *-default.xml} first.
 */
public final class ValueSources {

  private ValueSources() {
  }

  /** Where {@code key}'s value was set ({@code mapred-default.xml}, {@code programmatically}, a file), or null. */
  public static String origin(Configuration conf, String key) {
    String[] sources = conf.getPropertySources(key);
    return sources == null || sources.length == 0 ? null : sources[0];
  }

  /** Whether {@code key} holds Hadoop's default: unset, or first set by a {@code *-default.xml}. */
  public static boolean isHadoopDefault(Configuration conf, String key) {
    String origin = origin(conf, key);
    return origin == null || origin.endsWith("-default.xml");
  }
}
