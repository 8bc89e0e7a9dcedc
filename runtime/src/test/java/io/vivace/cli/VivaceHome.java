package io.vivace.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Arrays;
import java.util.stream.Stream;

/**
 * A Vivace home of its own for tests of what the launcher does with its build (the class data
 * sharing archive, the share/ jars): these tests run before Maven packages the runtime, so the
 * home holds a copy of the script, the bootstrap, the root pom and conf/, and a "build" made of
 * this module's classes as the runtime jar, the test class path's jars as its dependencies, and
 * the job and share/ jars the runtime's build copied. The script finds that build current, so it
 * runs no Maven.
 */
final class VivaceHome {

  private VivaceHome() {}

  static Path create(Path dir) throws Exception {
    Path home = Files.createDirectories(dir);
    Path repository = VivaceScript.repositoryRoot();
    Files.copy(repository.resolve("vivace"), home.resolve("vivace"));
    copyFolder(repository.resolve("bootstrap"), home.resolve("bootstrap"));
    copyFolder(repository.resolve("conf"), home.resolve("conf"));
    Files.copy(repository.resolve("pom.xml"), home.resolve("pom.xml"));
    Files.setLastModifiedTime(home.resolve("pom.xml"), FileTime.from(Instant.now().minusSeconds(60)));

    Path runtimeTarget = Files.createDirectories(home.resolve("runtime/target"));
    Path runtimeClasses =
        Path.of(VivaceCli.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    new TestJars.Builder().classes(runtimeClasses, "")
        .writeTo(runtimeTarget.resolve("vivace-runtime.jar"));
    String dependencyJars = String.join(File.pathSeparator,
        Arrays.stream(VivaceScript.testClassPath().split(File.pathSeparator))
            .filter(entry -> entry.endsWith(".jar") && Files.isRegularFile(Path.of(entry)))
            .toList());
    Files.writeString(runtimeTarget.resolve("classpath.txt"), dependencyJars);
    copyFolder(VivaceScript.hadoopJars(), runtimeTarget.resolve("hadoop"));
    Path driverTarget = Files.createDirectories(home.resolve("driver/target"));
    new TestJars.Builder().writeTo(driverTarget.resolve("vivace-driver.jar"));
    Files.writeString(driverTarget.resolve("classpath.txt"), dependencyJars);
    return home;
  }

  /** Copies the files under {@code from}, their times kept (the JVM checks a CDS archive's jars'). */
  private static void copyFolder(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Path copy = to.resolve(from.relativize(file).toString());
        Files.createDirectories(copy.getParent());
        Files.copy(file, copy, StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
  }
}
