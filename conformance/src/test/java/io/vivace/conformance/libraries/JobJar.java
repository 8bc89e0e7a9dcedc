package io.vivace.conformance.libraries;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A job jar that a module of {@code conformance-jobs/} built: {@code job.jar} (the job's own
 * classes), {@code lib/} (the framework jars it ships with {@code -libjars}, as a user would) and
 * {@code client-lib/} (jars only on the client's class path, as a framework's launch script puts
 * its own on {@code HADOOP_CLASSPATH}: Hive's, whose tasks get Hive from the job jar Hive names).
 */
public record JobJar(String module, Path jar, List<Path> libraries, List<Path> clientLibraries) {

  /** The jar of module {@code conformance-jobs/<module>}, as the build left it. */
  public static JobJar of(String module) {
    Path modules = Path.of(System.getProperty("vivace.conformance.jobs", "../conformance-jobs"));
    Path buildDir = modules.resolve(module).resolve(System.getProperty("vivace.build.dir", "target"));
    Path jar = buildDir.resolve("job.jar");
    assertTrue(Files.isRegularFile(jar), "no " + jar + ": build the conformance-jobs modules first");
    return new JobJar(module, jar.toAbsolutePath(), jarsIn(buildDir.resolve("lib")), jarsIn(buildDir.resolve("client-lib")));
  }

  private static List<Path> jarsIn(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted()
          .map(Path::toAbsolutePath).collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A new loader of the job jar and its libraries, shipped or not, above {@code parent}: what
   * {@code RunJar} makes with the libraries on {@code HADOOP_CLASSPATH}.
   */
  public URLClassLoader newClassLoader(ClassLoader parent) {
    List<URL> urls = new ArrayList<>();
    try {
      urls.add(jar.toUri().toURL());
      for (Path library : libraries) {
        urls.add(library.toUri().toURL());
      }
      for (Path library : clientLibraries) {
        urls.add(library.toUri().toURL());
      }
    } catch (MalformedURLException e) {
      throw new IllegalStateException(e);
    }
    return new URLClassLoader(urls.toArray(new URL[0]), parent);
  }

  /** The value of {@code -libjars}: the libraries, comma-separated. */
  public String libjars() {
    return libraries.stream().map(Path::toString).collect(Collectors.joining(","));
  }
}
