package io.vivace.realcluster;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * What a cluster is made of: its hosts, their addresses and ports, its network's names, its link
 * and the resources of its workers. {@code up} writes it before it creates anything, so that
 * {@code down} knows what to remove even after {@code up} crashed half-way.
 *
 * @param subnet the third octet of the cluster's network, 198.18.{subnet}.0/24; 0 on loopback
 */
record ClusterState(boolean namespaces, String prefix, int subnet, LinkRate link, int cores,
                    int memoryMb, List<Host> hosts) {

  /** The network the namespaces' addresses come from: RFC 2544's, reserved for benchmarks. */
  static final String BENCHMARK_NETWORK = "198.18";
  static final String LOOPBACK_HOSTNAME = "localhost";
  static final String LOOPBACK_ADDRESS = "127.0.0.1";

  Host master() {
    return hosts.stream().filter(h -> h.role() == Host.Role.MASTER).findFirst()
        .orElseThrow(() -> new IllegalStateException("the cluster has no master host"));
  }

  List<Host> workers() {
    return hosts.stream().filter(h -> h.role() == Host.Role.WORKER).toList();
  }

  String bridge() {
    return prefix + "-br";
  }

  /** The address of the bridge in the machine's own namespace: the client's, to the hosts. */
  String gateway() {
    return BENCHMARK_NETWORK + "." + subnet + ".1";
  }

  String subnetCidr() {
    return BENCHMARK_NETWORK + "." + subnet + ".0/24";
  }

  static String hostAddress(int subnet, int index) {
    return BENCHMARK_NETWORK + "." + subnet + "." + (10 + index);
  }

  static String masterName(String prefix) {
    return prefix.isEmpty() ? "master" : prefix + "-master";
  }

  static String workerName(String prefix, int number) {
    return (prefix.isEmpty() ? "" : prefix + "-") + "worker" + number;
  }

  void save(Path file) throws IOException {
    Properties p = new Properties();
    p.setProperty("mode", namespaces ? "netns" : "loopback");
    p.setProperty("prefix", prefix);
    p.setProperty("subnet", Integer.toString(subnet));
    p.setProperty("link", link.toString());
    p.setProperty("cores", Integer.toString(cores));
    p.setProperty("memory.mb", Integer.toString(memoryMb));
    p.setProperty("hosts", String.join(",", hosts.stream().map(Host::name).toList()));
    for (Host host : hosts) {
      String key = "host." + host.name() + ".";
      p.setProperty(key + "role", host.role().name());
      p.setProperty(key + "hostname", host.hostname());
      p.setProperty(key + "address", host.address());
      host.ports().forEach((port, number) -> p.setProperty(key + "port." + port.name(), number.toString()));
    }
    Files.createDirectories(file.getParent());
    Path temp = file.resolveSibling(file.getFileName() + ".tmp");
    try (Writer out = Files.newBufferedWriter(temp)) {
      p.store(out, "written by `vivace cluster up`; read by `vivace cluster down` and `status`");
    }
    Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  static Optional<ClusterState> load(Path file) throws IOException {
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(file)) {
      p.load(in);
    }
    try {
      List<Host> hosts = new ArrayList<>();
      for (String name : required(p, "hosts", file).split(",")) {
        String key = "host." + name + ".";
        Map<Daemon.Port, Integer> ports = new EnumMap<>(Daemon.Port.class);
        for (Daemon.Port port : Daemon.Port.values()) {
          String number = p.getProperty(key + "port." + port.name());
          if (number != null) {
            ports.put(port, Integer.parseInt(number));
          }
        }
        hosts.add(new Host(name, Host.Role.valueOf(required(p, key + "role", file)),
            required(p, key + "hostname", file), required(p, key + "address", file), ports));
      }
      return Optional.of(new ClusterState(required(p, "mode", file).equals("netns"),
          p.getProperty("prefix", ""), Integer.parseInt(required(p, "subnet", file)),
          LinkRate.parse(required(p, "link", file)), Integer.parseInt(required(p, "cores", file)),
          Integer.parseInt(required(p, "memory.mb", file)), hosts));
    } catch (IllegalArgumentException e) {
      throw new IOException("cluster state " + file + " is malformed: " + e.getMessage(), e);
    }
  }

  private static String required(Properties p, String key, Path file) {
    String value = p.getProperty(key);
    if (value == null) {
      throw new IllegalArgumentException("no " + key + " in " + file);
    }
    return value;
  }
}
