package io.vivace.realcluster;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;

/**
 * Waits, as a client outside the hosts, until the cluster serves: HDFS with every DataNode live and
 * out of safe mode, YARN with every NodeManager running, the JobHistory server answering; or, after
 * one worker's daemon was started again, until that daemon serves. A daemon that exits meanwhile
 * fails the wait at once, with the end of its log.
 */
final class Readiness {

  static final long TIMEOUT_MS = 300_000;
  private static final int LOG_TAIL_LINES = 30;
  private static final int MAX_LINE = 300;

  private final ClusterState state;
  private final ClusterFiles files;
  private final Map<String, Process> daemons;
  private final long deadline = System.currentTimeMillis() + TIMEOUT_MS;

  /** {@code daemons}: the processes started, by "host daemon". */
  Readiness(ClusterState state, ClusterFiles files, Map<String, Process> daemons) {
    this.state = state;
    this.files = files;
    this.daemons = daemons;
  }

  /** A client configuration that gives up on an unreachable daemon quickly, to ask again. */
  Configuration clientConf() {
    Configuration conf = new Configuration(false);
    for (String site : List.of("core-site.xml", "hdfs-site.xml", "yarn-site.xml", "mapred-site.xml")) {
      conf.addResource(new org.apache.hadoop.fs.Path(files.clientConf().resolve(site).toUri()));
    }
    conf.setInt("ipc.client.connect.max.retries", 0);
    conf.setInt("ipc.client.connect.max.retries.on.timeouts", 0);
    conf.setLong("yarn.resourcemanager.connect.max-wait.ms", 1_000);
    conf.setLong("yarn.resourcemanager.connect.retry-interval.ms", 500);
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    return conf;
  }

  void waitForNameNode() throws IOException {
    waitFor("the NameNode to answer", () -> {
      try (FileSystem fs = FileSystem.get(clientConf())) {
        fs.getFileStatus(new org.apache.hadoop.fs.Path("/"));
        return true;
      }
    });
  }

  void waitForHdfs() throws IOException {
    int workers = state.workers().size();
    waitFor(workers + " DataNodes to register and HDFS to leave safe mode", () -> {
      try (DistributedFileSystem dfs = (DistributedFileSystem) FileSystem.get(clientConf())) {
        return dfs.getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE).length >= workers
            && !dfs.setSafeMode(HdfsConstants.SafeModeAction.SAFEMODE_GET);
      }
    });
  }

  void waitForYarn() throws IOException {
    int workers = state.workers().size();
    waitFor(workers + " NodeManagers to run", () -> runningNodes().size() >= workers);
  }

  /** Until the host's DataNode has sent the NameNode a heartbeat at {@code sinceMillis} or later. */
  void waitForDataNode(Host host, long sinceMillis) throws IOException {
    waitFor("the DataNode of " + host.name() + " to heartbeat to the NameNode", () -> {
      try (DistributedFileSystem dfs = (DistributedFileSystem) FileSystem.get(clientConf())) {
        for (DatanodeInfo datanode : dfs.getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE)) {
          if (datanode.getIpAddr().equals(host.address()) && datanode.getXferPort() == host.port(Daemon.Port.DATANODE_DATA)
              && datanode.getLastUpdate() >= sinceMillis) {
            return true;
          }
        }
        return false;
      }
    });
  }

  /**
   * Until the host's NodeManager runs for the ResourceManager with a health report made at
   * {@code sinceMillis} or later: one a NodeManager started since then sent.
   */
  void waitForNodeManager(Host host, long sinceMillis) throws IOException {
    waitFor("the NodeManager of " + host.name() + " to register with the ResourceManager", () -> {
      for (NodeReport node : runningNodes()) {
        if (node.getNodeId().getHost().equals(host.hostname()) && node.getNodeId().getPort() == host.port(Daemon.Port.NM_IPC)
            && node.getLastHealthReportTime() >= sinceMillis) {
          return true;
        }
      }
      return false;
    });
  }

  /** The NodeManagers the ResourceManager counts as running; none while it does not answer. */
  private List<NodeReport> runningNodes() throws IOException {
    YarnClient yarn = YarnClient.createYarnClient();
    yarn.init(clientConf());
    yarn.start();
    try {
      return yarn.getNodeReports(NodeState.RUNNING);
    } catch (org.apache.hadoop.yarn.exceptions.YarnException e) {
      return List.of();
    } finally {
      yarn.stop();
    }
  }

  void waitForHistoryServer() throws IOException {
    Host master = state.master();
    URL info = new URL("http://" + master.endpoint(Daemon.Port.JHS_WEB) + "/ws/v1/history/info");
    waitFor("the JobHistory server to answer", () -> {
      HttpURLConnection connection = (HttpURLConnection) info.openConnection();
      connection.setConnectTimeout(2_000);
      connection.setReadTimeout(5_000);
      try {
        return connection.getResponseCode() == 200;
      } finally {
        connection.disconnect();
      }
    });
  }

  interface Check {
    boolean passes() throws IOException;
  }

  private void waitFor(String what, Check check) throws IOException {
    IOException last = null;
    while (true) {
      checkDaemonsAlive();
      try {
        if (check.passes()) {
          return;
        }
      } catch (IOException e) {
        last = e;
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IOException("gave up waiting for " + what + " after " + TIMEOUT_MS / 1000 + " s"
            + (last == null ? "" : " (last: " + last + ")") + "; the daemons' logs are under "
            + files.dir().resolve("hosts") + "/*/logs");
      }
      try {
        Thread.sleep(1_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting for " + what);
      }
    }
  }

  private void checkDaemonsAlive() throws IOException {
    for (Host host : state.hosts()) {
      for (Daemon daemon : host.daemons()) {
        Process process = daemons.get(key(host, daemon));
        if (process != null && !process.isAlive()) {
          throw new IOException("the " + daemon.command + " of " + host.name() + " exited (status "
              + process.exitValue() + "):\n" + tail(files.daemonOut(host, daemon)) + tail(files.daemonLog(host, daemon))
              + "(logs: " + files.hostLogs(host) + ")");
        }
      }
    }
  }

  static String key(Host host, Daemon daemon) {
    return host.name() + " " + daemon.command;
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log);
      StringBuilder tail = new StringBuilder();
      for (String line : lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size())) {
        tail.append(line.length() > MAX_LINE ? line.substring(0, MAX_LINE) + " ..." : line).append('\n');
      }
      return tail.toString();
    } catch (IOException e) {
      return "";
    }
  }
}
