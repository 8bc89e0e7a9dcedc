package io.vivace.sandbox;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;

/**
 * The classes a job names in its configuration (mapper, reducer, combiner, partitioner, formats,
 * comparators, key and value classes, the classes behind chain, multithreaded and multiple-input
 * mappers, a job's own {@code *.class} keys): they tell which class path entries hold the job's own
 * classes when those sit on the JVM's class path. Keys that come only from Hadoop's default or site
 * files (a cluster's proxy providers, schedulers...) name framework classes, not the job's.
 */
final class JobClassNames {

  private static final Pattern CLASS_NAME = Pattern.compile("[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)+");

  private JobClassNames() {
  }

  static Set<String> of(Configuration conf) {
    Set<String> names = new LinkedHashSet<>();
    for (Map.Entry<String, String> e : conf) {
      String key = e.getKey();
      if (namesClasses(key) && setByTheJob(conf, key)) {
        for (String value : e.getValue().split("[,;\\s]+")) {
          if (CLASS_NAME.matcher(value).matches()) {
            names.add(value);
          }
        }
      }
    }
    return names;
  }

  private static boolean namesClasses(String key) {
    return key.endsWith(".class") || key.endsWith(".classes") || key.endsWith("mapclass")
        || key.contains(".class.") || key.startsWith("mapreduce.input.multipleinputs.");
  }

  private static boolean setByTheJob(Configuration conf, String key) {
    String[] sources = conf.getPropertySources(key);
    if (sources == null) {
      return true;
    }
    for (String source : sources) {
      if (!source.endsWith("-default.xml") && !source.endsWith("-site.xml") && !source.endsWith("job.xml")) {
        return true;
      }
    }
    // read back from job.xml, whose <source> elements record where each value came from
    return sources.length == 1;
  }
}
