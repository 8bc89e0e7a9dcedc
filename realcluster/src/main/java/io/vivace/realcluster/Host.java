package io.vivace.realcluster;

import java.util.List;
import java.util.Map;

/**
 * One host of the cluster: its name (also its network namespace's), the name and address its
 * daemons and the client know it by, and the port of each of its daemons' listeners.
 */
record Host(String name, Role role, String hostname, String address, Map<Daemon.Port, Integer> ports) {

  enum Role {
    MASTER(List.of(Daemon.NAMENODE, Daemon.RESOURCEMANAGER, Daemon.HISTORYSERVER)),
    WORKER(List.of(Daemon.DATANODE, Daemon.NODEMANAGER));

    final List<Daemon> daemons;

    Role(List<Daemon> daemons) {
      this.daemons = daemons;
    }
  }

  List<Daemon> daemons() {
    return role.daemons;
  }

  int port(Daemon.Port port) {
    Integer number = ports.get(port);
    if (number == null) {
      throw new IllegalStateException("host " + name + " has no " + port + " port");
    }
    return number;
  }

  /** {@code hostname:port} of one of this host's listeners. */
  String endpoint(Daemon.Port port) {
    return hostname + ":" + port(port);
  }
}
