package io.vivace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The class data sharing archive {@code ./vivace jar} makes after a build and maps in every later
 * job, in a Vivace home of its own ({@link VivaceHome}).
 */
@Tag("integration")
@Tag("slow")
class LauncherCdsTest {

  @TempDir
  Path workDir;

  private Path vivaceHome() throws Exception {
    return VivaceHome.create(workDir.resolve("home"));
  }

  private String[] wordcount(Path input, Path output) {
    return new String[] {"jar", VivaceScript.examplesJar().toString(), "wordcount",
        "-D", "hadoop.tmp.dir=" + workDir.resolve("hadoop-tmp"), input.toString(), output.toString()};
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
    assertTrue(Files.isRegularFile(archive) && Files.size(archive) > 0, "no archive made; its log:\n"
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
