package io.vivace.realcluster;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The hosts' network: a network namespace per host, a veth pair from each to one bridge in the
 * machine's namespace, addresses in 198.18.{subnet}.0/24 (the bridge's .1 is the client's), and no
 * route out of the subnet. Each veth end is shaped with an {@code htb} class to the link's rate, so
 * that both directions of every host's link are; the kernel here has no {@code netem}, so links
 * have bandwidth but no added delay. Host names resolve inside the namespaces through
 * {@code /etc/netns/<host>/hosts}, which {@code ip netns exec} mounts over {@code /etc/hosts}.
 */
final class NamespaceNetwork {

  static final Path NETNS_ETC = Path.of("/etc/netns");
  static final Path NETNS_RUN = Path.of("/run/netns");
  private static final Path ALLOCATION_LOCK = Path.of("/run/lock/vivace-cluster.lock");
  /** The htb class's quantum: one class only, so any value above a packet does; set, htb warns. */
  private static final String QUANTUM = "60000";
  /** Inside each namespace, the host's end of its veth pair. */
  static final String HOST_INTERFACE = "eth0";

  private NamespaceNetwork() {}

  /**
   * Fails with {@link NamespacesUnavailableException} saying why when this process cannot make
   * namespaces, veth pairs and qdiscs (not root, or a tool missing).
   */
  static void checkAvailable() throws IOException {
    for (String tool : List.of("ip", "tc", "unshare", "setsid")) {
      if (Commands.attempt("sh", "-c", "command -v " + tool).status() != 0) {
        throw new NamespacesUnavailableException("`" + tool + "` is not installed");
      }
    }
    String probe = "vvprobe" + ProcessHandle.current().pid();
    Commands.Result made = Commands.attempt("ip", "netns", "add", probe);
    if (!made.ok()) {
      throw new NamespacesUnavailableException("`ip netns add` failed: " + made.err().strip()
          + " (namespaces need root)");
    }
    Commands.attempt("ip", "netns", "del", probe);
  }

  /**
   * Runs {@code work} while no other {@code up} picks a subnet, with the first subnet no bridge,
   * namespace, address or route of this machine uses ({@code preferred} when it is free).
   */
  static <T> T withFreeSubnet(int preferred, SubnetWork<T> work) throws IOException {
    Files.createDirectories(ALLOCATION_LOCK.getParent());
    try (FileChannel channel = FileChannel.open(ALLOCATION_LOCK, StandardOpenOption.CREATE,
        StandardOpenOption.WRITE); FileLock lock = channel.lock()) {
      Set<Integer> used = usedSubnets();
      if (preferred > 0 && !used.contains(preferred)) {
        return work.run(preferred);
      }
      for (int subnet = 1; subnet < 255; subnet++) {
        if (!used.contains(subnet)) {
          return work.run(subnet);
        }
      }
      throw new IOException("every subnet of 198.18.0.0/24 to 198.18.254.0/24 is in use on this machine");
    }
  }

  interface SubnetWork<T> {
    T run(int subnet) throws IOException;
  }

  private static Set<Integer> usedSubnets() throws IOException {
    Set<Integer> used = new TreeSet<>();
    String machine = Commands.run("ip", "-4", "-o", "addr", "show") + "\n"
        + Commands.run("ip", "-4", "route", "show") + "\n"
        + Commands.run("ip", "-o", "link", "show") + "\n"
        + Commands.run("ip", "netns", "list");
    var address = java.util.regex.Pattern.compile("198\\.18\\.(\\d+)\\.").matcher(machine);
    while (address.find()) {
      used.add(Integer.parseInt(address.group(1)));
    }
    var name = java.util.regex.Pattern.compile("\\bvv(\\d+)-").matcher(machine);
    while (name.find()) {
      used.add(Integer.parseInt(name.group(1)));
    }
    return used;
  }

  /** Makes the bridge, every host's namespace, veth pair, addresses, shaping and hosts file. */
  static void create(ClusterState state, String clientHostname) throws IOException {
    String bridge = state.bridge();
    Commands.run("ip", "link", "add", bridge, "type", "bridge");
    Commands.run("ip", "addr", "add", state.gateway() + "/24", "dev", bridge);
    Commands.run("ip", "link", "set", bridge, "up");
    String hosts = hostsFile(state, clientHostname);
    for (Host host : state.hosts()) {
      String ns = host.name();
      Commands.run("ip", "netns", "add", ns);
      Commands.run("ip", "link", "add", ns, "type", "veth", "peer", "name", HOST_INTERFACE, "netns", ns);
      Commands.run("ip", "link", "set", ns, "master", bridge);
      Commands.run("ip", "link", "set", ns, "up");
      Commands.run("ip", "-n", ns, "addr", "add", host.address() + "/24", "dev", HOST_INTERFACE);
      Commands.run("ip", "-n", ns, "link", "set", HOST_INTERFACE, "up");
      Commands.run("ip", "-n", ns, "link", "set", "lo", "up");
      if (state.link().shaped()) {
        shape(state.link(), List.of("tc"), ns);                     // into the host
        shape(state.link(), List.of("tc", "-n", ns), HOST_INTERFACE); // out of the host
      }
      Path etc = NETNS_ETC.resolve(ns);
      Files.createDirectories(etc);
      Files.writeString(etc.resolve("hosts"), hosts, StandardCharsets.UTF_8);
    }
  }

  private static void shape(LinkRate link, List<String> tc, String device) throws IOException {
    for (List<String> command : shapePlan(link, tc, device)) {
      Commands.run(command.toArray(new String[0]));
    }
  }

  /** The {@code tc} commands ({@code tc} is the command's prefix) that shape {@code device} to the link's rate. */
  static List<List<String>> shapePlan(LinkRate link, List<String> tc, String device) {
    String rate = link.tcRate();
    String burst = Long.toString(link.burstBytes());
    return List.of(
        command(tc, "qdisc", "replace", "dev", device, "root", "handle", "1:", "htb", "default", "1"),
        command(tc, "class", "replace", "dev", device, "parent", "1:", "classid", "1:1", "htb", "rate", rate,
            "ceil", rate, "burst", burst, "cburst", burst, "quantum", QUANTUM));
  }

  static List<String> command(List<String> prefix, String... args) {
    List<String> command = new ArrayList<>(prefix);
    command.addAll(List.of(args));
    return command;
  }

  /**
   * The hosts file of every host and of the client: loopback, the client (this machine's name, at
   * the bridge's address) and every host.
   */
  static String hostsFile(ClusterState state, String clientHostname) {
    StringBuilder text = new StringBuilder("# written by `vivace cluster up`\n127.0.0.1\tlocalhost\n");
    if (state.namespaces()) {
      text.append(state.gateway()).append('\t').append(clientHostname).append('\n');
      for (Host host : state.hosts()) {
        text.append(host.address()).append('\t').append(host.hostname()).append('\n');
      }
    } else {
      text.append("127.0.0.1\t").append(clientHostname).append('\n');
    }
    return text.toString();
  }

  /** The command prefix that runs a program on {@code host}: in its namespace, with its host name. */
  static List<String> onHost(Host host) {
    return List.of("ip", "netns", "exec", host.name(), "unshare", "--uts", "sh", "-c",
        "hostname \"$0\" && exec \"$@\"", host.hostname());
  }

  /** The pids of every process in the host's namespace (none when it does not exist). */
  static List<Long> pids(Host host) throws IOException {
    if (!Files.exists(NETNS_RUN.resolve(host.name()))) {
      return List.of();
    }
    Commands.Result listed = Commands.attempt("ip", "netns", "pids", host.name());
    List<Long> pids = new ArrayList<>();
    for (String line : listed.out().split("\n")) {
      if (!line.isBlank()) {
        pids.add(Long.parseLong(line.strip()));
      }
    }
    return pids;
  }

  /**
   * Removes what {@link #create} made, whatever part of it exists. Returns what could not be
   * removed, empty when everything went.
   */
  static List<String> remove(ClusterState state) throws IOException {
    List<String> left = new ArrayList<>();
    for (Host host : state.hosts()) {
      String ns = host.name();
      if (Files.exists(NETNS_RUN.resolve(ns))) {
        Commands.Result deleted = Commands.attempt("ip", "netns", "del", ns);
        if (!deleted.ok()) {
          left.add("namespace " + ns + ": " + deleted.err().strip());
        }
      }
      if (linkExists(ns)) {
        Commands.attempt("ip", "link", "del", ns);
        if (linkExists(ns)) {
          left.add("link " + ns);
        }
      }
      Path etc = NETNS_ETC.resolve(ns);
      if (Files.exists(etc)) {
        Files.deleteIfExists(etc.resolve("hosts"));
        Files.delete(etc);
      }
    }
    if (linkExists(state.bridge())) {
      Commands.attempt("ip", "link", "del", state.bridge());
      if (linkExists(state.bridge())) {
        left.add("bridge " + state.bridge());
      }
    }
    try (var entries = Files.list(NETNS_ETC)) {
      if (entries.findAny().isEmpty()) {
        Files.delete(NETNS_ETC);
      }
    } catch (java.nio.file.NoSuchFileException e) {
      // nothing under /etc/netns at all
    }
    return left;
  }

  static boolean linkExists(String name) throws IOException {
    return Commands.attempt("ip", "link", "show", "dev", name).ok();
  }

  /** The qdisc on the host's side of its link, as {@code tc} shows it; empty when unshaped. */
  static String shaping(Host host) throws IOException {
    Commands.Result shown = Commands.attempt("tc", "class", "show", "dev", host.name());
    return shown.ok() ? shown.out().strip() : "";
  }
}
