package io.vivace.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;

import io.vivace.driver.JobRecorder;

/**
 * Which MapReduce frameworks the suite compares, and the Hadoop configuration a run starts from.
 *
 * <p>The framework under test is the value of the system property {@value #PROPERTY} (default
 * {@value #DEFAULT_UNDER_TEST}); the reference is always Apache's LocalJobRunner ({@value
 * #REFERENCE}). While the engine is not registered yet, run with {@code
 * -Dvivace.conformance.framework=local}: then both sides are Apache's runner.
 */
public final class Frameworks {

  public static final String PROPERTY = "vivace.conformance.framework";
  public static final String DEFAULT_UNDER_TEST = "vivace";
  /** Apache's in-process LocalJobRunner. */
  public static final String REFERENCE = MRConfig.LOCAL_FRAMEWORK_NAME;

  private Frameworks() {}

  /** The value of mapreduce.framework.name under test. */
  public static String underTest() {
    String v = System.getProperty(PROPERTY);
    return v == null || v.isBlank() ? DEFAULT_UNDER_TEST : v.trim();
  }

  /**
   * Apache's local provider overwrites mapreduce.job.maps with 1 on every submission
   * (LocalClientProtocolProvider.create), so input formats that size themselves from it (TeraGen,
   * RandomWriter, RandomTextWriter, SleepJob) run one map there whatever was asked.
   */
  public static boolean forcesOneMap(String framework) {
    return REFERENCE.equals(framework);
  }

  /** Number of maps a map-count-driven input format gets on {@code framework} when asked for n. */
  public static int expectedMaps(String framework, int requested) {
    return forcesOneMap(framework) ? 1 : requested;
  }

  /**
   * A fresh configuration that submits to {@code framework}, through the driver's {@link
   * JobRecorder} so the suite can read back the counters of jobs that Apache's tools create
   * internally. Everything Hadoop writes besides the job output (staging, local dirs, spills) goes
   * under {@code scratch}.
   */
  public static Configuration conf(String framework, Path scratch) {
    try {
      Files.createDirectories(scratch);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    String dir = scratch.toAbsolutePath().toString();
    conf.set("hadoop.tmp.dir", dir);
    // LocalJobRunner does not derive its staging root from hadoop.tmp.dir (mapred-default.xml has
    // no default for it; the code falls back to /tmp/hadoop/mapred/staging), so set it as well.
    conf.set("mapreduce.jobtracker.staging.root.dir", dir + "/staging");
    conf.set("yarn.app.mapreduce.am.staging-dir", dir + "/staging");
    conf.set("mapreduce.cluster.local.dir", dir + "/local");
    JobRecorder.recordOn(conf, framework);
    return conf;
  }
}
