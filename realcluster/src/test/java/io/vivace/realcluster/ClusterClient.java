package io.vivace.realcluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A client of a cluster {@code ./vivace cluster up} made in {@code dir}, from outside its hosts as a
 * user's machine: {@code ./vivace cluster ...}, {@code ./vivace ...} with the cluster's
 * configuration, the daemons' REST APIs; and the checks the real-cluster tests share.
 */
final class ClusterClient {

  static final Path HOME = Path.of(System.getProperty("vivace.home")).toAbsolutePath().normalize();
  static final Path LAUNCHER = HOME.resolve("vivace");
  static final Path EXAMPLES = HOME.resolve("runtime/target/hadoop/jobs/hadoop-mapreduce-examples.jar");
  /**
   * The JIT options the tier gave this test JVM (surefire's {@code vivace.test.jvm.jit}, C1 only
   * under {@code ./vivace test}; empty under a plain {@code mvn}), for the JVMs the cluster starts.
   */
  static final String TEST_JIT = System.getProperty("vivace.test.jvm.jit", "").trim();

  private final Path dir;
  private final Path work;

  ClusterClient(Path dir, Path work) {
    this.dir = dir;
    this.work = work;
  }

  /**
   * {@code ./vivace cluster ...} on this module's own class path, built by this very build; the
   * daemons it starts get the JIT options the tier gave this JVM ({@code HADOOP_OPTS}), as
   * {@link Engine}'s containers do.
   */
  Run.Result cluster(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(LAUNCHER.toString(), "cluster"));
    command.addAll(List.of(args));
    return new Run(command).env("VIVACE_CLASSPATH", System.getProperty("java.class.path"))
        .env("HADOOP_OPTS", TEST_JIT).timeoutSeconds(900).run();
  }

  /**
   * {@code up} of {@code workers} workers with {@code link} links on nothing: what an earlier,
   * interrupted run left in the folders (processes, namespaces, HDFS) removed first. Skips the
   * calling test where namespaces cannot be made.
   */
  ClusterState upAfresh(int workers, String link) throws Exception {
    cluster("down", "--dir", dir.toString());
    deleteTree(dir);
    deleteTree(work);
    Files.createDirectories(work);
    Run.Result up = timed("up", () -> cluster("up", "--dir", dir.toString(), "--hosts", Integer.toString(workers),
        "--link", link));
    Assumptions.assumeFalse(up.exitCode() == ClusterCommand.NAMESPACES_UNAVAILABLE,
        () -> "network namespaces cannot be made here: " + up.stderr().strip());
    assertEquals(0, up.exitCode(), up.describe());
    return ClusterState.load(dir.resolve("cluster.properties")).orElseThrow();
  }

  /** {@code down}, which must succeed. */
  void down() throws Exception {
    Run.Result down = cluster("down", "--dir", dir.toString());
    assertEquals(0, down.exitCode(), down.describe());
  }

  /** {@code ./vivace ...} as a client outside the hosts, with the cluster's configuration. */
  Run.Result vivace(String... args) throws Exception {
    return client(args).run();
  }

  /** {@code ./vivace ...} as {@link #vivace}, with {@code HADOOP_CLASSPATH} set. */
  Run.Result vivaceWith(String hadoopClasspath, String... args) throws Exception {
    return client(args).env("HADOOP_CLASSPATH", hadoopClasspath).run();
  }

  private Run client(String... args) {
    List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
    command.addAll(List.of(args));
    return new Run(command).env("HADOOP_CONF_DIR", dir.resolve("conf").toString())
        .env("HADOOP_CLIENT_OPTS", hostsOption()).in(work).timeoutSeconds(1800);
  }

  /** {@code ./vivace examples PROGRAM} on the engine its flags name; it must succeed. */
  Run.Result examples(List<String> engine, String program, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("examples", program));
    command.addAll(engine);
    command.addAll(List.of(args));
    Run.Result result = vivace(command.toArray(new String[0]));
    assertEquals(0, result.exitCode(), result.describe());
    return result;
  }

  void fs(String... args) throws Exception {
    Run.Result result = fsRun(args);
    assertEquals(0, result.exitCode(), result.describe());
  }

  Run.Result fsRun(String... args) throws Exception {
    String[] command = new String[args.length + 1];
    command[0] = "fs";
    System.arraycopy(args, 0, command, 1, args.length);
    return vivace(command);
  }

  String hostsOption() {
    return "-Djdk.net.hosts.file=" + dir.resolve("conf/hosts");
  }

  /** What a REST API answers in JSON; empty when it does not answer (yet). */
  static String get(String url) {
    try {
      HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection();
      connection.setRequestProperty("Accept", "application/json");
      connection.setConnectTimeout(5_000);
      connection.setReadTimeout(20_000);
      try (var in = connection.getInputStream()) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } finally {
        connection.disconnect();
      }
    } catch (IOException e) {
      return "";
    }
  }

  static Set<String> matches(Pattern pattern, String text) {
    Set<String> found = new TreeSet<>();
    Matcher m = pattern.matcher(text);
    while (m.find()) {
      found.add(m.group(1));
    }
    return found;
  }

  /** A job counter as the client printed it ({@code Launched map tasks=3}); 0 when not printed. */
  static int counter(Run.Result job, String name) {
    Matcher m = Pattern.compile("\\s" + Pattern.quote(name) + "=(\\d+)").matcher(job.stderr());
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
  }

  static void assertSameParts(Path expected, Path actual) throws IOException {
    List<String> names = partNames(expected);
    assertFalse(names.isEmpty(), "no part files in " + expected);
    assertEquals(names, partNames(actual), "part files of " + actual + " against " + expected);
    for (String name : names) {
      assertArrayEquals(Files.readAllBytes(expected.resolve(name)), Files.readAllBytes(actual.resolve(name)),
          actual.resolve(name) + " differs from " + expected.resolve(name));
    }
    assertTrue(Files.exists(actual.resolve("_SUCCESS")), "no _SUCCESS in " + actual);
  }

  static List<String> partNames(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("part-")).sorted().toList();
    }
  }

  /** This machine's load averages over 1, 5 and 15 minutes, as {@code uptime} prints them. */
  static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return fields[0] + ", " + fields[1] + ", " + fields[2];
    } catch (IOException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }

  /** Runs a step and prints how long it took (the test's output file), for the suite's budget. */
  static <T> T timed(String step, Callable<T> work) throws Exception {
    long start = System.nanoTime();
    try {
      return work.call();
    } finally {
      System.out.printf("%s: %.1f s%n", step, (System.nanoTime() - start) / 1e9);
    }
  }

  static void timed(String step, ThrowingRunnable work) throws Exception {
    timed(step, () -> {
      work.run();
      return null;
    });
  }

  interface ThrowingRunnable {
    void run() throws Exception;
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
