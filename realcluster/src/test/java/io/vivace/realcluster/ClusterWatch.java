package io.vivace.realcluster;

import static io.vivace.realcluster.ClusterClient.get;
import static io.vivace.realcluster.ClusterClient.matches;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a cluster's daemons say through their REST APIs and pages, asked from outside the hosts at
 * their addresses: the ResourceManager's running applications, an application master's progress
 * and a Vivace session's executors (through the ResourceManager's proxy), a NodeManager's
 * containers, the NameNode's files and where their blocks' replicas are.
 */
final class ClusterWatch {

  private static final Pattern EXECUTOR = Pattern.compile("<li>(executor \\d+ \\([^<]+)</li>");
  private static final Pattern EXECUTOR_LOAD = Pattern.compile("executor \\d+ \\(([^,]+), [^)]+\\): (\\d+) of \\d+ slots busy");

  private final Host master;

  ClusterWatch(ClusterState state) {
    this.master = state.master();
  }

  String rm(String path) {
    return get("http://" + master.address() + ":" + master.port(Daemon.Port.RM_WEB) + path);
  }

  private String runningApps(String applicationType) {
    return rm("/ws/v1/cluster/apps?states=RUNNING" + (applicationType == null ? "" : "&applicationTypes=" + applicationType));
  }

  /** The id of a running application of the type; null when there is none. */
  String runningApplication(String applicationType) {
    Set<String> ids = matches(Pattern.compile("\"id\"\\s*:\\s*\"(application_[0-9_]+)\""), runningApps(applicationType));
    return ids.isEmpty() ? null : ids.iterator().next();
  }

  /** The host of a running application master of the type; empty when there is none. */
  String amHost(String applicationType) {
    Set<String> hosts = amHosts(applicationType);
    return hosts.isEmpty() ? "" : hosts.iterator().next();
  }

  /** The hosts of the running application masters of the type, of every type when null. */
  Set<String> amHosts(String applicationType) {
    return matches(Pattern.compile("\"amHostHttpAddress\"\\s*:\\s*\"([^\":]+)"), runningApps(applicationType));
  }

  /**
   * The map progress (0 to 100) of the application's running job, as its master's web pages show
   * it through the ResourceManager's proxy (a session's page, MapReduce's REST API); -1 when unknown.
   */
  int mapProgress(String application, Engine engine) {
    String proxy = "/proxy/" + application + "/";
    Matcher m = engine == Engine.SESSION
        ? Pattern.compile("<td>RUNNING</td><td>(\\d+)%</td>").matcher(rm(proxy))
        : Pattern.compile("\"mapProgress\"\\s*:\\s*([0-9.]+)").matcher(rm(proxy + "ws/v1/mapreduce/jobs"));
    return m.find() ? (int) Double.parseDouble(m.group(1)) : -1;
  }

  /** A session's executors as its page lists them: {@code executor 3 (vv1-worker2, container_...): 2 of 4 slots busy}. */
  List<String> sessionExecutors(String application) {
    List<String> executors = new ArrayList<>();
    Matcher m = EXECUTOR.matcher(rm("/proxy/" + application + "/"));
    while (m.find()) {
      executors.add(m.group(1));
    }
    return executors;
  }

  /** The host (name or address) of an executor {@link #sessionExecutors} lists. */
  static String executorHost(String executor) {
    Matcher m = EXECUTOR_LOAD.matcher(executor);
    return m.find() ? m.group(1) : "";
  }

  /**
   * Whether the worker runs the job's work: for a session, an executor there with a busy slot (its
   * page lists each executor's); for MapReduce, a container of the job's application.
   */
  boolean runsWorkOf(Host worker, String application, Engine engine) {
    if (engine == Engine.MAPREDUCE) {
      return nodeContainers(worker).contains("container_" + application.substring("application_".length()) + "_");
    }
    for (String executor : sessionExecutors(application)) {
      Matcher m = EXECUTOR_LOAD.matcher(executor);
      if (m.find() && isOn(worker, m.group(1)) && Integer.parseInt(m.group(2)) > 0) {
        return true;
      }
    }
    return false;
  }

  static boolean isOn(Host worker, String host) {
    return host.equals(worker.hostname()) || host.equals(worker.address());
  }

  /** How many containers of the engine's running application each worker runs ({@code vv1-worker1=2}). */
  List<String> containersByWorker(Engine engine, List<Host> workers) {
    String app = runningApplication(engine.applicationType);
    List<String> counts = new ArrayList<>();
    for (Host worker : workers) {
      long n = app == null ? 0 : matches(Pattern.compile("\"id\"\\s*:\\s*\"(container_"
          + app.substring("application_".length()) + "_[0-9_]+)\""), nodeContainers(worker)).size();
      counts.add(worker.name() + "=" + n);
    }
    return counts;
  }

  private static String nodeContainers(Host worker) {
    return get("http://" + worker.address() + ":" + worker.port(Daemon.Port.NM_WEB) + "/ws/v1/node/containers");
  }

  boolean exists(String path) {
    return !namenode(path, "GETFILESTATUS").isEmpty();
  }

  /**
   * Every block of the part files under {@code dir}, each as the addresses of the DataNodes the
   * NameNode lists as holding a replica ({@code 198.18.1.11:9866}).
   */
  List<Set<String>> blockReplicas(String dir) {
    List<Set<String>> blocks = new ArrayList<>();
    for (String file : matches(Pattern.compile("\"pathSuffix\"\\s*:\\s*\"(part-[^\"]+)\""), namenode(dir, "LISTSTATUS"))) {
      Matcher names = Pattern.compile("\"names\"\\s*:\\s*\\[([^\\]]*)\\]")
          .matcher(namenode(dir + "/" + file, "GETFILEBLOCKLOCATIONS"));
      while (names.find()) {
        blocks.add(matches(Pattern.compile("\"([^\"]+)\""), names.group(1)));
      }
    }
    return blocks;
  }

  private String namenode(String path, String op) {
    return get("http://" + master.address() + ":" + master.port(Daemon.Port.NAMENODE_HTTP) + "/webhdfs/v1" + path
        + "?op=" + op + "&user.name=" + System.getProperty("user.name"));
  }
}
