package io.vivace.realcluster;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Optional;

/** {@code vivace cluster status}: the hosts, their daemons and pids, the links. */
final class ClusterStatus {

  private static final String ROW = "%-16s %-16s %-14s %-16s %-9s %s%n";

  private ClusterStatus() {}

  /** Prints the cluster; true when every daemon runs. */
  static boolean print(ClusterFiles files, PrintStream out) throws IOException {
    Optional<ClusterState> loaded = ClusterState.load(files.state());
    if (loaded.isEmpty()) {
      out.println("no cluster in " + files.dir());
      return false;
    }
    ClusterState state = loaded.get();
    out.println("cluster " + files.dir() + ": " + (state.namespaces()
        ? "network namespaces on bridge " + state.bridge() + " (" + state.subnetCidr() + ")"
        : "loopback (--no-netns)") + ", links " + (state.link().shaped() ? state.link() + " each way"
        : "unshaped") + ", YARN " + state.cores() + " vcores and " + state.memoryMb() + " MB per worker");
    out.printf(ROW, "HOST", "HOSTNAME", "ADDRESS", "DAEMON", "PID", "STATE");
    boolean allRunning = true;
    for (Host host : state.hosts()) {
      for (Daemon daemon : host.daemons()) {
        Optional<Long> pid = ClusterProcesses.daemonPid(files, host, daemon);
        allRunning &= pid.isPresent();
        out.printf(ROW, host.name(), host.hostname(), host.address(), daemon.command,
            pid.map(String::valueOf).orElse("-"), pid.isPresent() ? "running" : "stopped");
      }
    }
    if (state.namespaces() && state.link().shaped()) {
      for (Host host : state.hosts()) {
        out.println("link of " + host.name() + ": " + NamespaceNetwork.shaping(host).replace('\n', ' '));
      }
    }
    return allRunning;
  }

  static boolean allRunning(ClusterState state, ClusterFiles files) throws IOException {
    for (Host host : state.hosts()) {
      for (Daemon daemon : host.daemons()) {
        if (ClusterProcesses.daemonPid(files, host, daemon).isEmpty()) {
          return false;
        }
      }
    }
    return true;
  }
}
