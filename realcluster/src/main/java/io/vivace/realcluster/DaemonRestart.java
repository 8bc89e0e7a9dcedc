package io.vivace.realcluster;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code vivace cluster restart --host HOST --daemon datanode|nodemanager}: one daemon of a worker
 * SIGKILLed if it runs (its JVM only: a NodeManager's containers live on, as when its process dies)
 * and started again as {@code up} starts it. Returns once it serves again: a DataNode heartbeating
 * to the NameNode, a NodeManager registered with the ResourceManager.
 */
final class DaemonRestart {

  private DaemonRestart() {}

  /** Returns whether the daemon was running (and was killed) before it was started. */
  static boolean run(ClusterState state, ClusterFiles files, Host host, Daemon daemon) throws IOException {
    if (!host.daemons().contains(daemon)) {
      throw new IllegalArgumentException("--host " + host.name() + " runs no " + daemon.command);
    }
    boolean wasRunning = HostFault.killDaemon(files, host, daemon);
    long since = System.currentTimeMillis(); // what the NameNode or ResourceManager heard from here on is the new JVM's
    DaemonLauncher launcher = new DaemonLauncher(state, files, new HadoopInstall(files.hadoopHome()));
    Map<String, Process> started = new HashMap<>();
    started.put(Readiness.key(host, daemon), launcher.start(host, daemon));
    Readiness readiness = new Readiness(state, files, started);
    if (daemon == Daemon.DATANODE) {
      readiness.waitForDataNode(host, since);
    } else {
      readiness.waitForNodeManager(host, since);
    }
    return wasRunning;
  }
}
