package io.vivace.driver.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * A session's container logs on the tests' mini-cluster, read for what a failing test should say:
 * the attempts the master gave to executors it still has that no executor's log shows ended.
 */
final class SessionLogs {

  private static final Pattern GIVEN = Pattern.compile("Gave (executor \\d+) .*attempts: \\[(.*)]");
  private static final Pattern LOST = Pattern.compile("Lost (executor \\d+) ");
  private static final Pattern ATTEMPT = Pattern.compile("Task attempt (attempt_\\S+) (starts|succeeded|failed|was "
      + "stopped|did not stop)");

  private SessionLogs() {
  }

  /**
   * The attempts the master gave to executors it did not lose whose end no executor logged, each with the executor it was given
   * to and whether it started there ({@code attempt_... on executor 3, started}); "none" when every
   * one ended.
   */
  static String unendedAttempts(ClusterFixture cluster, String application) throws IOException {
    Map<String, String> given = new LinkedHashMap<>();
    Set<String> started = new LinkedHashSet<>();
    Set<String> ended = new LinkedHashSet<>();
    Set<String> lost = new LinkedHashSet<>();
    for (Path syslog : syslogs(cluster, application)) {
      boolean master = isMasters(syslog);
      for (String line : Files.readAllLines(syslog, StandardCharsets.ISO_8859_1)) {
        Matcher gone = LOST.matcher(line);
        if (master && gone.find()) {
          lost.add(gone.group(1));
          continue;
        }
        Matcher m = (master ? GIVEN : ATTEMPT).matcher(line);
        if (!m.find()) {
          continue;
        }
        if (master) {
          for (String attempt : m.group(2).split(", ")) {
            given.put(attempt, m.group(1));
          }
        } else {
          (m.group(2).equals("starts") ? started : ended).add(m.group(1));
        }
      }
    }
    List<String> unended = new ArrayList<>();
    given.forEach((attempt, executor) -> {
      if (!ended.contains(attempt) && !lost.contains(executor)) {
        unended.add(attempt + " on " + executor + (started.contains(attempt) ? ", started" : ", never started"));
      }
    });
    return unended.isEmpty() ? "none" : String.join("; ", unended);
  }

  /** Every log file of the application's containers, on every NodeManager of the cluster. */
  static List<Path> files(ClusterFixture cluster, String application) throws IOException {
    return files(cluster.yarn(), application);
  }

  /** Every log file of the application's containers, on every NodeManager of {@code yarn}. */
  static List<Path> files(MiniMRYarnCluster yarn, String application) throws IOException {
    List<Path> logs = new ArrayList<>();
    int nodes = yarn.getResourceManager().getRMContext().getRMNodes().size();
    for (int i = 0; i < nodes; i++) {
      for (String dir : yarn.getNodeManager(i).getConfig().getTrimmedStrings(YarnConfiguration.NM_LOG_DIRS)) {
        Path folder = Paths.get(dir, application);
        if (Files.isDirectory(folder)) {
          try (Stream<Path> files = Files.walk(folder)) {
            files.filter(Files::isRegularFile).forEach(logs::add);
          }
        }
      }
    }
    return logs;
  }

  /** The {@code syslog} of each of the application's containers. */
  static List<Path> syslogs(ClusterFixture cluster, String application) throws IOException {
    return syslogs(cluster.yarn(), application);
  }

  /** The {@code syslog} of each of the application's containers on {@code yarn}. */
  static List<Path> syslogs(MiniMRYarnCluster yarn, String application) throws IOException {
    return files(yarn, application).stream().filter(f -> f.getFileName().toString().equals("syslog")).toList();
  }

  /** Whether the log is the session master's (its container is the application's first, {@code _000001}). */
  static boolean isMasters(Path log) {
    return log.getParent().getFileName().toString().endsWith("_000001");
  }
}
