package io.vivace.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Vivace session on {@code ./vivace minicluster} ({@link MiniCluster} in a JVM of its own) when
 * the cluster is killed outright (SIGKILL, nothing of it left to stop anything): the session's
 * master, whose ResourceManager is gone, ends by itself within {@code vivace.session.rm.timeout.ms}
 * and its way out, and its executors with it. (Stopped as the lab stops it, stdin closed, the
 * cluster leaves no container process behind: {@link MiniClusterTest}.) Container processes are
 * found by the cluster's folder in their command lines.
 */
@Tag("minicluster")
@Tag("slow")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class MiniClusterSessionTest {

  private static final int READY_SECONDS = 240;
  private static final long RM_TIMEOUT_MS = 10_000;

  @Test
  void aSessionWhoseClusterIsKilledEndsByItself() throws Exception {
    Path dir = DriverRun.tempDir("minicluster-killed");
    Process cluster = start(dir);
    try {
      List<ProcessHandle> session = aSessionRunsOn(cluster, dir);
      cluster.destroyForcibly().waitFor(1, TimeUnit.MINUTES);
      long limit = RM_TIMEOUT_MS / 1000 + 60 + 60; // the timeout, the way out's limit, a margin for a loaded host
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(limit);
      while (session.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
        Thread.sleep(500);
      }
      List<ProcessHandle> left = session.stream().filter(ProcessHandle::isAlive).toList();
      assertEquals(List.of(), left, "the session's processes " + limit + " s after its cluster was killed: "
          + left.stream().map(MiniClusterSessionTest::describe).toList() + "\n" + logs(dir));
      String master = masterLog(dir);
      assertTrue(master.contains("The session ends: the ResourceManager cannot be reached"), master);
    } finally {
      stopAll(cluster, dir);
    }
  }

  /** Once the cluster is ready, a one-map sleep on a session of it; returns the session's processes. */
  private static List<ProcessHandle> aSessionRunsOn(Process cluster, Path dir) throws Exception {
    MiniClusterSessions.runASessionJob(ready(cluster, dir), RM_TIMEOUT_MS);
    List<ProcessHandle> session = MiniClusterSessions.containerProcesses(dir);
    assertTrue(session.size() >= 2, "the session's master and executor run: " + session);
    return session;
  }

  /** A container process as its command line names it: its main class and container. */
  private static String describe(ProcessHandle process) {
    String line = process.info().commandLine().orElse("");
    java.util.regex.Matcher container = java.util.regex.Pattern.compile("container_[0-9_]+").matcher(line);
    String main = line.contains("ExecutorMain") ? "executor" : line.contains("SessionMaster") ? "master" : "other";
    return process.pid() + " " + main + " " + (container.find() ? container.group() : "");
  }

  /** Every container's syslog, last lines. */
  private static String logs(Path dir) throws IOException {
    StringBuilder text = new StringBuilder();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path syslog : files.filter(f -> f.getFileName().toString().equals("syslog")).toList()) {
        List<String> lines = Files.readAllLines(syslog, StandardCharsets.UTF_8);
        text.append("== ").append(syslog.getParent().getFileName()).append('\n')
            .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()))).append('\n');
      }
    }
    return text.toString();
  }

  private static String masterLog(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      StringBuilder text = new StringBuilder();
      for (Path syslog : files.filter(f -> f.getFileName().toString().equals("syslog")
          && f.getParent().getFileName().toString().endsWith("_000001")).toList()) {
        text.append(Files.readString(syslog, StandardCharsets.UTF_8));
      }
      return text.toString();
    }
  }

  private static Process start(Path dir) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens")) {
        command.add(arg);
      }
    }
    command.addAll(List.of("-Djava.net.preferIPv4Stack=true", "-cp", System.getProperty("java.class.path"),
        MiniCluster.class.getName(), "--dir", dir.resolve("cluster").toString(), "--conf-out",
        dir.resolve("cluster-conf.xml").toString(), "--nodemanagers", "2", "--datanodes", "1",
        "--nm-memory-mb", "2048", "--am-memory-mb", "512", "--map-memory-mb", "512", "--reduce-memory-mb", "512"));
    return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.to(dir.resolve("cluster.log").toFile()))
        .start();
  }

  private static Path ready(Process cluster, Path dir) throws Exception {
    BufferedReader stdout = new BufferedReader(new InputStreamReader(cluster.getInputStream(), StandardCharsets.UTF_8));
    String line = CompletableFuture.supplyAsync(() -> {
      try {
        return stdout.readLine();
      } catch (IOException e) {
        return null;
      }
    }).get(READY_SECONDS, TimeUnit.SECONDS);
    assertTrue(line != null && line.startsWith("READY "), "the mini-cluster's first line: " + line + "; see "
        + dir.resolve("cluster.log"));
    return Paths.get(line.substring("READY ".length()));
  }

  /** Whatever the test left: the cluster, its containers, its folder. */
  private static void stopAll(Process cluster, Path dir) throws InterruptedException {
    if (cluster.isAlive()) {
      cluster.destroyForcibly().waitFor(1, TimeUnit.MINUTES);
    }
    MiniClusterSessions.containerProcesses(dir).forEach(ProcessHandle::destroyForcibly);
    DriverRun.deleteQuietly(dir);
  }
}
