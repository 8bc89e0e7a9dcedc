package io.vivace.driver;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * A job's configuration as its client submitted it: the {@code job.xml} in the job's staging
 * directory, read just before submission (frameworks remove the directory when the job ends).
 * The job client has written every key into it, defaults included, and the real number of maps
 * (one per input split) into {@code mapreduce.job.maps}.
 */
public final class SubmittedConfiguration {

  private final SortedMap<String, String> values;

  private SubmittedConfiguration(SortedMap<String, String> values) {
    this.values = Collections.unmodifiableSortedMap(values);
  }

  /** The job.xml under {@code jobSubmitDir}, or null when it cannot be read. */
  static SubmittedConfiguration read(String jobSubmitDir, Configuration clientConf) {
    try {
      Path file = new Path(jobSubmitDir, MRJobConfig.JOB_CONF_FILE);
      byte[] bytes;
      try (InputStream in = file.getFileSystem(clientConf).open(file)) {
        bytes = in.readAllBytes();
      }
      Configuration conf = new Configuration(false);
      conf.addResource(new ByteArrayInputStream(bytes), file.toString());
      SortedMap<String, String> values = new TreeMap<>();
      for (Map.Entry<String, String> entry : conf) {
        values.put(entry.getKey(), conf.get(entry.getKey()));
      }
      return new SubmittedConfiguration(values);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Every key with its value, variables expanded. */
  public SortedMap<String, String> values() {
    return values;
  }

  /** An integer value, or null when the key is absent or not a number. */
  public Integer intValue(String key) {
    String value = values.get(key);
    if (value == null) {
      return null;
    }
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
