package io.vivace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The class data sharing archive {@code ./vivace jar} makes after a build and maps in every later
 * job. The tests run before Maven packages the runtime, so the script runs from a Vivace home of
 * its own: a copy of the script, the root pom and conf/, and a "build" made of this module's
 * classes as the runtime jar and the test class path's jars as its dependencies.
 */
@Tag("slow")
class LauncherCdsTest {

  @TempDir
  Path workDir;

  /** A Vivace home whose build the script finds current, so it runs no Maven. */
  private Path vivaceHome() throws Exception {
    Path home = Files.createDirectories(workDir.resolve("home"));
    Path repository = VivaceScript.repositoryRoot();
    Files.copy(repository.resolve("vivace"), home.resolve("vivace"));
    Files.copy(repository.resolve("pom.xml"), home.resolve("pom.xml"));
    Path conf = Files.createDirectories(home.resolve("conf"));
    for (String file : List.of("mapred-site.xml", "log4j.properties")) {
      Files.copy(repository.resolve("conf").resolve(file), conf.resolve(file));
    }
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
    Path driverTarget = Files.createDirectories(home.resolve("driver/target"));
    new TestJars.Builder().writeTo(driverTarget.resolve("vivace-driver.jar"));
    Files.writeString(driverTarget.resolve("classpath.txt"), dependencyJars);
    return home;
  }

  private String[] wordcount(Path input, Path output) {
    return new String[] {"jar", VivaceScript.testClassPathJar("hadoop-mapreduce-examples-")
        .toString(), "wordcount", "-D", "hadoop.tmp.dir=" + workDir.resolve("hadoop-tmp"),
        input.toString(), output.toString()};
  }

  @Test
  void firstJobMakesAStaticArchiveThatLaterJobsLoadHadoopsAndJava5JarsClassesFrom()
      throws Exception {
    Path home = vivaceHome();
    Path input = Files.createDirectories(workDir.resolve("in"));
    Files.writeString(input.resolve("words.txt"), "one two two\n");

    VivaceScript.Result first = new VivaceScript(workDir, home.resolve("vivace"))
        .withItsOwnClassPath().run(wordcount(input, workDir.resolve("out-1")));
    assertEquals(0, first.exitCode(), first.describe());
    Path archive = home.resolve("runtime/target/vivace-cds.jsa");
    assertTrue(Files.size(archive) > 0, "no archive made; its log:\n"
        + Files.readString(home.resolve("runtime/target/vivace-cds.log")));
    assertTrue(Files.readString(home.resolve("runtime/target/vivace-cds.jsa.made-for"))
        .startsWith("static "));

    Path classLoadLog = workDir.resolve("class-load.txt");
    VivaceScript.Result second = new VivaceScript(workDir, home.resolve("vivace"))
        .withItsOwnClassPath().env("VIVACE_OPTS", "-Xlog:class+load:file=" + classLoadLog)
        .run(wordcount(input, workDir.resolve("out-2")));
    assertEquals(0, second.exitCode(), second.describe());
    assertEquals(List.of("one\t1", "two\t2"),
        Files.readAllLines(workDir.resolve("out-2/part-r-00000")));
    List<String> loaded = Files.readAllLines(classLoadLog);
    for (String className : List.of("io.vivace.cli.VivaceCli",
        "org.apache.hadoop.mapreduce.Job", "org.apache.hadoop.conf.Configuration",
        // class files of Java 5 (version 49): only a static archive holds them on JDK 17
        "org.apache.log4j.Logger", "org.slf4j.LoggerFactory")) {
      assertTrue(loaded.stream().anyMatch(
              line -> line.contains(" " + className + " source: shared objects file")),
          className + " not loaded from the archive:\n" + String.join("\n", loaded.stream()
              .filter(line -> line.contains(" " + className + " ")).toList()));
    }
  }
}
