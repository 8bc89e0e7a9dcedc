package io.vivace.sandbox;

import io.vivace.sandbox.rewrite.CallRewriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;

/**
 * Where a job's own classes come from, and those classes read and rewritten once for all the job's
 * {@link TaskClassLoader}s. A job's own class path entries are: its job jar, {@code -libjars} and
 * other class path files (the job's class loader, {@code source}); the class path of the loaders
 * the submitting program made above the JVM's (how {@code vivace jar} loads a jar and its nested
 * jars); and, for programs whose job classes sit on the JVM's class path (tests, embedded
 * drivers), the entries holding the classes the job names ({@link JobClassNames}). Framework
 * entries ({@link FrameworkJars}) are never the job's; a few Hadoop library packages are defined
 * per job all the same ({@link LibraryClassesPerJob}).
 */
public final class JobClassPath {

  /** A class of the job: its bytes (rewritten) and the class path entry they come from. */
  record JobClass(byte[] bytes, URL entry) {
  }

  private final ClassLoader source;
  private final Set<String> entries;
  private final SharedClasses shared;
  private final ConcurrentHashMap<String, Optional<JobClass>> classes = new ConcurrentHashMap<>();

  private JobClassPath(ClassLoader source, Set<String> entries, SharedClasses shared) {
    this.source = source;
    this.entries = entries;
    this.shared = shared;
  }

  /**
   * @param source finds everything the job can load (its class loader)
   * @param conf   the job's configuration: the classes it names, those it shares ({@link SharedClasses})
   */
  public static JobClassPath of(ClassLoader source, Configuration conf) {
    Collection<String> classNames = JobClassNames.of(conf);
    Set<String> entries = new LinkedHashSet<>();
    ClassLoader system = ClassLoader.getSystemClassLoader();
    for (ClassLoader l = source; l != null && l != system && l != system.getParent(); l = l.getParent()) {
      if (l instanceof URLClassLoader urls) {
        for (URL url : urls.getURLs()) {
          String entry = ClassPathEntries.of(url);
          if (entry != null) {
            entries.add(entry);
          }
        }
      }
    }
    for (String name : classNames) {
      String resource = resourceName(name);
      URL url = source.getResource(resource);
      String entry = url == null ? null : ClassPathEntries.of(url, resource);
      if (entry != null) {
        entries.add(entry);
      }
    }
    FrameworkJars framework = FrameworkJars.get();
    entries.removeIf(framework::contains);
    return new JobClassPath(source, entries, SharedClasses.of(conf));
  }

  public ClassLoader source() {
    return source;
  }

  /** The job's class path entries (absolute local paths), for messages and tests. */
  public Set<String> entries() {
    return entries;
  }

  /** The job's class {@code name}, rewritten; empty when the class is not the job's own. */
  Optional<JobClass> find(String name) {
    Optional<JobClass> known = classes.get(name);
    return known != null ? known : classes.computeIfAbsent(name, this::read);
  }

  private Optional<JobClass> read(String name) {
    if (shared.contains(name)) {
      return Optional.empty();
    }
    String resource = resourceName(name);
    URL url = source.getResource(resource);
    if (url == null) {
      return Optional.empty();
    }
    String entry = ClassPathEntries.of(url, resource);
    if (entry == null || !(entries.contains(entry) || LibraryClassesPerJob.contains(name))) {
      return Optional.empty();
    }
    try (InputStream in = url.openStream()) {
      byte[] bytes = CallRewriter.rewrite(in.readAllBytes());
      return Optional.of(new JobClass(bytes, new java.io.File(entry).toURI().toURL()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read class " + name + " from " + url, e);
    }
  }

  private static String resourceName(String className) {
    return className.replace('.', '/') + ".class";
  }
}
