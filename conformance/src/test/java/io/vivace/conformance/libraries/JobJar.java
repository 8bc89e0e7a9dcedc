package io.vivace.conformance.libraries;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A job jar that a module of {@code conformance-jobs/} built: {@code job.jar} (the job's own
 * classes) and {@code lib/} (the framework jars it ships with {@code -libjars}, as a user would).
 */
public record JobJar(String module, Path jar, List<Path> libraries) {

  /** The jar of module {@code conformance-jobs/<module>}, as the build left it. */
  public static JobJar of(String module) {
    Path modules = Path.of(System.getProperty("vivace.conformance.jobs", "../conformance-jobs"));
    Path buildDir = modules.resolve(module).resolve(System.getProperty("vivace.build.dir", "target"));
    Path jar = buildDir.resolve("job.jar");
    assertTrue(Files.isRegularFile(jar), "no " + jar + ": build the conformance-jobs modules first");
    return new JobJar(module, jar.toAbsolutePath(), jarsIn(buildDir.resolve("lib")));
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

  /** The value of {@code -libjars}: the libraries, comma-separated. */
  public String libjars() {
    return libraries.stream().map(Path::toString).collect(Collectors.joining(","));
  }
}
