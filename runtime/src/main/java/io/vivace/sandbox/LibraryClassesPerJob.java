package io.vivace.sandbox;

import java.util.List;

/**
 * Hadoop library classes that each job gets a copy of, defined by its own loaders as if they were
 * in its job jar. These find classes the job names with {@code Class.forName(String)}, which looks
 * only in the loader that defined the caller: on YARN the job jar and {@code -libjars} are on the
 * task JVM's system class path, so they are found there; on Vivace that loader (the framework's)
 * cannot see a job's classes, while the job's own loaders can. So:
 * <ul>
 *   <li>{@code mapreduce.lib.db}, {@code mapred.lib.db}: {@code DBConfiguration} loads the JDBC
 *       driver the job names, shipped with {@code -libjars};
 *   <li>{@code mapreduce.lib.join}, {@code mapred.join}: {@code TupleWritable} reads the classes of
 *       its values, {@code CompositeInputSplit} those of its splits and the join expression's parser
 *       those of its input formats.
 * </ul>
 * Whole packages, so that the classes which pass each other's objects around share one loader; no
 * class outside them refers to them (Vivace's runtime included), so the framework's copy and a
 * job's never meet in one attempt.
 */
final class LibraryClassesPerJob {

  private static final List<String> PACKAGES = List.of(
      "org.apache.hadoop.mapreduce.lib.db.",
      "org.apache.hadoop.mapred.lib.db.",
      "org.apache.hadoop.mapreduce.lib.join.",
      "org.apache.hadoop.mapred.join.");

  private LibraryClassesPerJob() {
  }

  static boolean contains(String className) {
    for (String p : PACKAGES) {
      if (className.startsWith(p) && className.indexOf('.', p.length()) < 0) {
        return true;
      }
    }
    return false;
  }
}
