package io.vivace.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the repository's real {@code ./vivace} script as a process. It gets this test JVM's class
 * path through {@code VIVACE_CLASSPATH}, so it neither checks nor starts a Maven build (the tests
 * run before {@code package}), and this JVM's {@code java}; the caller's HADOOP_* and VIVACE_*
 * settings are dropped so that each test sets its own.
 */
final class VivaceScript {

  private static final long TIMEOUT_MINUTES = 5;
  private static final List<String> INHERITED_SETTINGS_TO_DROP = List.of(
      "HADOOP_CONF_DIR", "HADOOP_CLASSPATH", "HADOOP_USER_CLASSPATH_FIRST", "HADOOP_OPTS",
      "HADOOP_CLIENT_OPTS", "HADOOP_ROOT_LOGGER", "HADOOP_HEAPSIZE_MAX", "VIVACE_OPTS",
      "VIVACE_HEAPSIZE", "VIVACE_JIT", "VIVACE_CDS");
  /**
   * The JIT options the tier gave this test JVM (surefire's {@code vivace.test.jvm.jit}, C1 only
   * under {@code ./vivace test}), for the script's JVMs too: what the tests check of them does not
   * depend on the JIT.
   */
  private static final String TEST_JIT = System.getProperty("vivace.test.jvm.jit", "").trim();

  record Result(int exitCode, String stdout, String stderr) {

    String describe() {
      return "exit " + exitCode + "\n--- stdout:\n" + stdout + "\n--- stderr:\n" + stderr;
    }
  }

  private final Path workDir;
  private final Path script;
  private final Map<String, String> env = new HashMap<>();
  private boolean testClassPath = true;

  /** A script run from {@code workDir}, where its process writes its output files too. */
  VivaceScript(Path workDir) {
    this(workDir, repositoryRoot().resolve("vivace"));
  }

  /** A copy of the script, at {@code script}, with a Vivace home of its own around it. */
  VivaceScript(Path workDir, Path script) {
    this.workDir = workDir;
    this.script = script;
  }

  /** The script finds its class path in its home's build, as it does for a user. */
  VivaceScript withItsOwnClassPath() {
    testClassPath = false;
    return this;
  }

  VivaceScript env(String name, String value) {
    env.put(name, value);
    return this;
  }

  static Path repositoryRoot() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("vivace"))
          && Files.isRegularFile(dir.resolve("pom.xml"))) {
        return dir;
      }
    }
    throw new IllegalStateException("No vivace script above " + Path.of("").toAbsolutePath());
  }

  /** The class path of this test JVM (surefire's own jar only points at it). */
  static String testClassPath() {
    return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
  }

  /**
   * The folder the runtime's build copies Apache's examples jar ({@code jobs/}) and the share/ jars
   * of {@code ./vivace classpath} into ({@code runtime/target/hadoop}).
   */
  static Path hadoopJars() {
    String dir = System.getProperty("vivace.hadoop.jars");
    if (dir == null) {
      throw new IllegalStateException("no vivace.hadoop.jars property: run these tests through Maven");
    }
    return Path.of(dir);
  }

  /** Apache's unmodified hadoop-mapreduce-examples jar, a job jar like any user's. */
  static Path examplesJar() {
    return hadoopJars().resolve("jobs/hadoop-mapreduce-examples.jar");
  }

  /** A script (or java) process started by {@link #start}: signal it, then {@link #finish} it. */
  record Running(Process process, Path stdout, Path stderr, String shown) {

    Result finish() throws IOException, InterruptedException {
      if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        throw new AssertionError(shown + " ran over " + TIMEOUT_MINUTES
            + " minutes; stderr so far:\n" + Files.readString(stderr, StandardCharsets.UTF_8));
      }
      Result result = new Result(process.exitValue(),
          Files.readString(stdout, StandardCharsets.UTF_8),
          Files.readString(stderr, StandardCharsets.UTF_8));
      // Surefire keeps this in the test's output file, for when an assertion fails.
      System.out.println("$ " + shown + "\n" + result.describe());
      return result;
    }
  }

  Result run(String... args) throws IOException, InterruptedException {
    return start(args).finish();
  }

  /** Starts the script (its process is the JVM's: the script execs java) without waiting for it. */
  Running start(String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(script.toString());
    command.addAll(List.of(args));
    return launch(command, "./vivace " + String.join(" ", args));
  }

  /** Runs {@code java -cp classPath mainClass args} as the script's JVMs run, with its settings. */
  Result runJava(String classPath, String mainClass, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classPath,
        mainClass));
    command.addAll(List.of(args));
    return launch(command, "java " + mainClass + " " + String.join(" ", args)).finish();
  }

  private Running launch(List<String> command, String shown) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile());
    Map<String, String> processEnv = builder.environment();
    INHERITED_SETTINGS_TO_DROP.forEach(processEnv::remove);
    processEnv.remove("VIVACE_CLASSPATH");
    if (testClassPath) {
      processEnv.put("VIVACE_CLASSPATH", testClassPath());
    }
    processEnv.put("JAVA_HOME", Path.of(System.getProperty("java.home")).toString());
    processEnv.put("TMPDIR", workDir.toString());
    if (!TEST_JIT.isEmpty()) {
      processEnv.put("VIVACE_OPTS", TEST_JIT); // unless the test sets its own, below
    }
    processEnv.putAll(env);

    Path stdout = Files.createTempFile(workDir, "vivace-stdout-", ".txt");
    Path stderr = Files.createTempFile(workDir, "vivace-stderr-", ".txt");
    Process process = builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
    return new Running(process, stdout, stderr, shown);
  }
}
