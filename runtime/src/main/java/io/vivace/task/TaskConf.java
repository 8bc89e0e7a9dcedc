package io.vivace.task;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Properties;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;

/**
 * A task attempt's configuration: the job's, plus what the task sets. Copying a job configuration
 * (a thousand or more keys) costs a few hundred microseconds, most of a small task's launch; this
 * one reads the job's keys in place ({@link LayeredProperties}) and copies them only when a task
 * iterates or copies its configuration. {@link #reloadConfiguration()} (e.g. after
 * {@code addResource}) re-reads the job's resources and replays what the task set, as a copy would.
 */
final class TaskConf {

  private static final Field PROPERTIES = field("properties");
  private static final Field RESOURCES = field("resources");
  private static final Field FINAL_PARAMETERS = field("finalParameters");

  private TaskConf() {
  }

  private static Field field(String name) {
    try {
      Field f = Configuration.class.getDeclaredField(name);
      f.setAccessible(true);
      return f;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** A configuration for one attempt of {@code job}'s tasks. */
  static JobConf of(JobConf job) {
    if (PROPERTIES == null || RESOURCES == null || FINAL_PARAMETERS == null) {
      return new JobConf(job);
    }
    try {
      JobConf conf = new JobConf(false);
      Properties jobProperties;
      synchronized (job) {
        job.size(); // loads the job's resources if they are not yet
        jobProperties = (Properties) PROPERTIES.get(job);
        @SuppressWarnings("unchecked")
        ArrayList<Object> resources = (ArrayList<Object>) RESOURCES.get(job);
        RESOURCES.set(conf, resources.clone());
        @SuppressWarnings("unchecked")
        Set<String> finals = (Set<String>) FINAL_PARAMETERS.get(job);
        @SuppressWarnings("unchecked")
        Set<String> ownFinals = (Set<String>) FINAL_PARAMETERS.get(conf);
        ownFinals.addAll(finals);
      }
      PROPERTIES.set(conf, new LayeredProperties(jobProperties));
      conf.setClassLoader(job.getClassLoader());
      conf.setCredentials(job.getCredentials());
      return conf;
    } catch (IllegalAccessException e) {
      return new JobConf(job);
    }
  }
}
