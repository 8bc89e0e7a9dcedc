package io.vivace.driver;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * The JIT options of this test JVM as the tier gave them (surefire's {@code vivace.test.jvm.jit}:
 * {@code ./vivace test} gives C1 only; empty under a plain {@code mvn}), for the JVMs a test's
 * cluster starts: MapReduce's containers and a Vivace session's live for seconds to minutes, as the
 * test JVMs do, and what the tests check of them does not depend on the JIT.
 */
public final class TestJit {

  public static final String OPTIONS = System.getProperty("vivace.test.jvm.jit", "").trim();

  private TestJit() {
  }

  /**
   * {@code conf}'s MapReduce application masters and tasks (their admin options, after those it
   * has) and Vivace sessions compile as this JVM does.
   */
  public static void giveContainers(Configuration conf) {
    if (OPTIONS.isEmpty()) {
      return;
    }
    for (String key : new String[] {MRJobConfig.MR_AM_ADMIN_COMMAND_OPTS, MRJobConfig.MAPRED_MAP_ADMIN_JAVA_OPTS,
        MRJobConfig.MAPRED_REDUCE_ADMIN_JAVA_OPTS}) {
      conf.set(key, (conf.get(key, "") + " " + OPTIONS).trim());
    }
    conf.set("vivace.session.java.opts", OPTIONS);
  }
}
