package io.vivace.sandbox;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * Job classes a job asks to share with its driver and all its tasks, with Hadoop's key and pattern
 * syntax: {@value #KEY} is a comma-separated list of patterns, {@code com.example.} (a package and
 * its subpackages), {@code com.example.Shared} (a class and its nested classes), and the same with a
 * leading {@code -} to exclude. A class is shared when a pattern matches it and no excluding pattern
 * does. On YARN the key names the classes its job class loader takes from the system class path;
 * here they come from the submitting program's class loader, as LocalJobRunner would load them,
 * static fields and all. Framework classes are shared whatever the key says.
 */
final class SharedClasses {

  static final String KEY = "mapreduce.job.classloader.system.classes";

  private final List<String> included = new ArrayList<>();
  private final List<String> excluded = new ArrayList<>();

  private SharedClasses() {
  }

  static SharedClasses of(Configuration conf) {
    SharedClasses shared = new SharedClasses();
    for (String pattern : conf.getTrimmedStrings(KEY)) {
      if (pattern.startsWith("-")) {
        shared.excluded.add(pattern.substring(1));
      } else if (!pattern.isEmpty()) {
        shared.included.add(pattern);
      }
    }
    return shared;
  }

  boolean contains(String className) {
    return matchesAny(included, className) && !matchesAny(excluded, className);
  }

  private static boolean matchesAny(List<String> patterns, String className) {
    for (String p : patterns) {
      if (className.startsWith(p) && (p.endsWith(".") || className.length() == p.length()
          || className.charAt(p.length()) == '$')) {
        return true;
      }
    }
    return false;
  }
}
