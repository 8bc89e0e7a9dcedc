package io.vivace.realcluster;

import io.vivace.realcluster.Daemon.Port;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code vivace cluster up}: the hosts' network, the installation, the configuration, then the
 * daemons in the order they need each other (the NameNode; the DataNodes, the ResourceManager and
 * the NodeManagers; the JobHistory server once HDFS is out of safe mode), returning once all of
 * them serve. What it made is written down first ({@link ClusterState}); if it fails, it removes it
 * all again.
 */
final class ClusterUp {

  private final ClusterOptions options;
  private final ClusterFiles files;
  private final HadoopInstall install;

  ClusterUp(ClusterOptions options) {
    this.options = options;
    this.files = new ClusterFiles(options.dir());
    this.install = new HadoopInstall(files.hadoopHome());
  }

  void run() throws IOException {
    Optional<ClusterState> earlier = ClusterState.load(files.state());
    if (earlier.isPresent() && ClusterStatus.allRunning(earlier.get(), files)) {
      throw new IOException("a cluster is already up in " + files.dir() + " (`vivace cluster down --dir "
          + files.dir() + "` stops it)");
    }
    if (earlier.isPresent() || !ClusterProcesses.find(earlier, files).isEmpty()) {
      note("removing what an earlier cluster in " + files.dir() + " left");
      new ClusterDown(files).run();
    }
    String clientHostname = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    if (options.namespaces()) {
      NamespaceNetwork.checkAvailable();
    }
    Runtime.getRuntime().addShutdownHook(new Thread(this::removeUnlessUp, "cluster-up-abort"));
    ClusterState state;
    try {
      state = options.namespaces() ? makeNetwork(earlier, clientHostname) : loopbackPlan();
      state.save(files.state());
      Files.createDirectories(files.clientConf());
      Files.writeString(files.clientHosts(), NamespaceNetwork.hostsFile(state, clientHostname),
          StandardCharsets.UTF_8);
      start(state);
      up = true;
    } catch (IOException | RuntimeException e) {
      note("up failed; removing what it made");
      removeUnlessUp();
      throw e;
    }
    printSummary(state);
  }

  private volatile boolean up;
  private volatile boolean removed;

  private synchronized void removeUnlessUp() {
    if (up || removed) {
      return;
    }
    removed = true;
    try {
      new ClusterDown(files).run();
    } catch (IOException e) {
      note("could not remove everything: " + e.getMessage());
    }
  }

  private void start(ClusterState state) throws IOException {
    install.layOut();
    new ClusterConfiguration(state, files).write();
    for (Host host : state.hosts()) {
      for (String folder : List.of("data", "tmp", "logs", "run")) {
        Files.createDirectories(files.host(host).resolve(folder));
      }
    }
    DaemonLauncher launcher = new DaemonLauncher(state, files, install);
    Map<String, Process> started = new LinkedHashMap<>();
    Readiness readiness = new Readiness(state, files, started);
    Host master = state.master();
    if (!Files.exists(files.hostData(master).resolve("name/current/VERSION"))) {
      note("formatting HDFS");
      launcher.runToEnd(master, Daemon.NAMENODE,
          List.of("-format", "-force", "-nonInteractive", "-clusterid", "vivace-cluster"), Readiness.TIMEOUT_MS);
    }
    note("starting the NameNode on " + master.hostname());
    started.put(Readiness.key(master, Daemon.NAMENODE), launcher.start(master, Daemon.NAMENODE));
    readiness.waitForNameNode();
    note("starting the ResourceManager and the DataNode and NodeManager of " + state.workers().size()
        + " workers");
    started.put(Readiness.key(master, Daemon.RESOURCEMANAGER), launcher.start(master, Daemon.RESOURCEMANAGER));
    for (Host worker : state.workers()) {
      for (Daemon daemon : worker.daemons()) {
        started.put(Readiness.key(worker, daemon), launcher.start(worker, daemon));
      }
    }
    readiness.waitForHdfs();
    note("HDFS is up; starting the JobHistory server");
    started.put(Readiness.key(master, Daemon.HISTORYSERVER), launcher.start(master, Daemon.HISTORYSERVER));
    readiness.waitForYarn();
    readiness.waitForHistoryServer();
  }

  /** Plans the hosts on a free subnet, writes the plan down, then makes their network. */
  private ClusterState makeNetwork(Optional<ClusterState> earlier, String clientHostname) throws IOException {
    int preferred = earlier.filter(ClusterState::namespaces).map(ClusterState::subnet).orElse(0);
    return NamespaceNetwork.withFreeSubnet(preferred, subnet -> {
      ClusterState planned = namespacePlan(subnet);
      planned.save(files.state());
      note("making " + planned.hosts().size() + " hosts on bridge " + planned.bridge() + " ("
          + planned.subnetCidr() + "), links " + describe(planned.link()));
      NamespaceNetwork.create(planned, clientHostname);
      return planned;
    });
  }

  private ClusterState namespacePlan(int subnet) {
    String prefix = "vv" + subnet;
    List<Host> hosts = new ArrayList<>();
    String master = ClusterState.masterName(prefix);
    hosts.add(new Host(master, Host.Role.MASTER, master, ClusterState.hostAddress(subnet, 0),
        standardPorts(Host.Role.MASTER)));
    for (int i = 1; i <= options.workers(); i++) {
      String name = ClusterState.workerName(prefix, i);
      hosts.add(new Host(name, Host.Role.WORKER, name, ClusterState.hostAddress(subnet, i),
          standardPorts(Host.Role.WORKER)));
    }
    return new ClusterState(true, prefix, subnet, options.link(), options.cores(), options.memoryMb(), hosts);
  }

  private static Map<Port, Integer> standardPorts(Host.Role role) {
    Map<Port, Integer> ports = new EnumMap<>(Port.class);
    role.daemons.forEach(d -> d.ports.forEach(p -> ports.put(p, p.standard)));
    return ports;
  }

  /** Every host on loopback, each listener on a port free now. */
  private ClusterState loopbackPlan() throws IOException {
    if (options.link().shaped()) {
      throw new IOException("--link needs network namespaces: loopback (--no-netns) cannot be shaped per host");
    }
    List<Host> hosts = new ArrayList<>();
    hosts.add(new Host(ClusterState.masterName(""), Host.Role.MASTER, ClusterState.LOOPBACK_HOSTNAME,
        ClusterState.LOOPBACK_ADDRESS, freePorts(Host.Role.MASTER)));
    for (int i = 1; i <= options.workers(); i++) {
      hosts.add(new Host(ClusterState.workerName("", i), Host.Role.WORKER, ClusterState.LOOPBACK_HOSTNAME,
          ClusterState.LOOPBACK_ADDRESS, freePorts(Host.Role.WORKER)));
    }
    return new ClusterState(false, "", 0, LinkRate.UNSHAPED, options.cores(), options.memoryMb(), hosts);
  }

  private static Map<Port, Integer> freePorts(Host.Role role) throws IOException {
    Map<Port, Integer> ports = new EnumMap<>(Port.class);
    for (Daemon daemon : role.daemons) {
      for (Port port : daemon.ports) {
        try (ServerSocket socket = new ServerSocket(0)) {
          ports.put(port, socket.getLocalPort());
        }
      }
    }
    return ports;
  }

  private void printSummary(ClusterState state) {
    note("up: master " + state.master().hostname() + ", workers "
        + String.join(", ", state.workers().stream().map(Host::hostname).toList()) + "; links "
        + describe(state.link()) + "; YARN " + state.cores() + " vcores and " + state.memoryMb()
        + " MB per worker");
    note("use it with:");
    System.out.println("export HADOOP_CONF_DIR=" + files.clientConf());
    System.out.println("export HADOOP_CLIENT_OPTS=\"" + ClusterConfiguration.clientJvmOption(files) + "\"");
  }

  private static String describe(LinkRate link) {
    return link.shaped() ? link + " each way" : "unshaped";
  }

  static void note(String message) {
    System.err.println("cluster: " + message);
  }
}
