package io.vivace.realcluster;

import java.nio.file.Path;

/** Where a cluster keeps its files under its folder ({@code --dir}). */
record ClusterFiles(Path dir) {

  /** The state of the cluster: what {@code up} made, which {@code down} removes. */
  Path state() {
    return dir.resolve("cluster.properties");
  }

  Path lock() {
    return dir.resolve(".cluster.lock");
  }

  /** The client configuration, as a cluster's own {@code HADOOP_CONF_DIR}. */
  Path clientConf() {
    return dir.resolve("conf");
  }

  /** The hosts file of the client's JVMs ({@code -Djdk.net.hosts.file}). */
  Path clientHosts() {
    return clientConf().resolve("hosts");
  }

  /** The Hadoop installation every host runs ({@code HADOOP_HOME}). */
  Path hadoopHome() {
    return dir.resolve("hadoop");
  }

  Path host(Host host) {
    return dir.resolve("hosts").resolve(host.name());
  }

  /** The host's {@code HADOOP_CONF_DIR}. */
  Path hostConf(Host host) {
    return host(host).resolve("conf");
  }

  Path hostLogs(Host host) {
    return host(host).resolve("logs");
  }

  Path hostData(Host host) {
    return host(host).resolve("data");
  }

  Path pidFile(Host host, Daemon daemon) {
    return host(host).resolve("run").resolve(daemon.command + ".pid");
  }

  Path daemonOut(Host host, Daemon daemon) {
    return hostLogs(host).resolve(daemon.command + ".out");
  }

  Path daemonLog(Host host, Daemon daemon) {
    return hostLogs(host).resolve(daemon.command + ".log");
  }
}
