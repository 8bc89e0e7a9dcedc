package io.vivace.conformance.libraries;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Runs a program of a job jar in a JVM of its own, with the job's classes where a given Hadoop
 * launch puts them. The class path is this JVM's minus the job jar's libraries (which only the mode
 * brings in), so that a library the job ships with {@code -libjars} is found only where Hadoop would
 * find it.
 */
public final class ChildJvm {

  /** Where the job's classes are. */
  public enum Mode {
    /**
     * The job jar and its libraries on the JVM's system class path, as YARN's task containers have
     * them (and {@code hadoop jar} with them on {@code HADOOP_CLASSPATH}).
     */
    SYSTEM_CLASS_PATH,
    /** {@code hadoop jar job.jar Program -libjars libs}: see {@link JobJarRunner}. */
    JOB_JAR
  }

  private ChildJvm() {}

  /** Runs {@code program} on {@code framework}; fails the test if the JVM does not exit 0. */
  public static void run(Mode mode, String framework, Path scratch, JobJar jar, String program, String... args)
      throws Exception {
    Set<String> libraries = jar.libraries().stream().map(p -> p.getFileName().toString()).collect(Collectors.toSet());
    List<String> classPath = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (!libraries.contains(Path.of(entry).getFileName().toString())) {
        classPath.add(entry);
      }
    }
    if (mode == Mode.SYSTEM_CLASS_PATH) {
      classPath.add(jar.jar().toString());
      jar.libraries().forEach(l -> classPath.add(l.toString()));
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (option.startsWith("--add-opens")) {
        command.add(option);
      }
    }
    for (String property : List.of("vivace.conformance.jobs", "vivace.build.dir")) {
      if (System.getProperty(property) != null) {
        command.add("-D" + property + "=" + System.getProperty(property));
      }
    }
    command.add("-cp");
    command.add(String.join(File.pathSeparator, classPath));
    command.add(ChildJvmMain.class.getName());
    command.add(mode.name());
    command.add(framework);
    command.add(scratch.toString());
    command.add(jar.module());
    command.add(program);
    command.addAll(List.of(args));
    Path log = scratch.resolveSibling(scratch.getFileName() + ".log");
    java.nio.file.Files.createDirectories(scratch);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!process.waitFor(10, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError(program + " on " + framework + " (" + mode + ") did not end in 10 minutes; log " + log);
    }
    assertEquals(0, process.exitValue(), program + " on " + framework + " (" + mode + ") failed; its log: " + log
        + "\n" + tail(log));
  }

  private static String tail(Path log) throws java.io.IOException {
    List<String> lines = java.nio.file.Files.readAllLines(log);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }
}
