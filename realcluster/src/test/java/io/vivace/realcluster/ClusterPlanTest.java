package io.vivace.realcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code up} plans and writes before any daemon starts: options, state, names, configuration. */
class ClusterPlanTest {

  @TempDir
  Path dir;

  @Test
  void linkRatesReadAsTcWritesThemAndRefuseWhatIsNotARate() {
    assertEquals(1_000_000_000L, LinkRate.parse("1gbit").bitsPerSecond());
    assertEquals(10_000_000_000L, LinkRate.parse("10Gbit").bitsPerSecond());
    assertEquals(2_500_000L, LinkRate.parse("2.5mbit").bitsPerSecond());
    assertEquals("100mbit", LinkRate.parse("100mbit").toString());
    assertFalse(LinkRate.parse("none").shaped());
    // a veth's offloaded segment (64 KiB) must fit the bucket, whatever the rate
    assertEquals(64 * 1024, LinkRate.parse("10mbit").burstBytes());
    assertEquals(625_000, LinkRate.parse("1gbit").burstBytes());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LinkRate.parse("1gb"));
    assertTrue(e.getMessage().contains("--link 1gb"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> LinkRate.parse("10bit"));
  }

  @Test
  void theCommandLineNeedsADirAndSaysWhatIsWrong() {
    ClusterOptions up = ClusterOptions.parse(new String[] {"up", "--dir", "d", "--hosts", "4", "--link",
        "1gbit", "--cores", "2", "--memory", "2048"});
    assertEquals(ClusterOptions.Command.UP, up.command());
    assertEquals(4, up.workers());
    assertEquals(2048, up.memoryMb());
    assertTrue(up.namespaces());
    assertFalse(ClusterOptions.parse(new String[] {"up", "--dir", "d", "--no-netns"}).namespaces());
    assertEquals("--dir DIR is required", message("status"));
    assertEquals("--hosts 0: must be between 1 and 200", message("up", "--dir", "d", "--hosts", "0"));
    assertEquals("--hosts needs a value", message("up", "--dir", "d", "--hosts"));
    assertEquals("unknown command: start", message("start", "--dir", "d"));
    assertEquals("--memory 256: a worker needs at least 512 MB", message("up", "--dir", "d", "--memory", "256"));
  }

  @Test
  void oneDaemonOfAWorkerIsKilledOrRestartedByName() {
    ClusterOptions restart = ClusterOptions.parse(new String[] {"restart", "--dir", "d", "--host", "vv7-worker2",
        "--daemon", "nodemanager"});
    assertEquals(ClusterOptions.Command.RESTART, restart.command());
    assertEquals(Daemon.NODEMANAGER, restart.daemon());
    assertEquals(Daemon.DATANODE, ClusterOptions.parse(new String[] {"kill", "--dir", "d", "--host", "h", "--daemon",
        "datanode"}).daemon());
    assertNull(ClusterOptions.parse(new String[] {"kill", "--dir", "d", "--host", "h"}).daemon());
    assertEquals("restart needs --daemon datanode|nodemanager", message("restart", "--dir", "d", "--host", "h"));
    assertEquals("--daemon namenode: a worker's daemons are datanode and nodemanager",
        message("restart", "--dir", "d", "--host", "h", "--daemon", "namenode"));
    assertEquals("--daemon goes with kill and restart only",
        message("link", "--dir", "d", "--host", "h", "--to", "up", "--daemon", "datanode"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DaemonRestart.run(twoWorkers(true), new ClusterFiles(dir), twoWorkers(true).master(), Daemon.DATANODE));
    assertTrue(e.getMessage().contains("runs no datanode"), e.getMessage());
  }

  @Test
  void theStateComesBackAsWritten() throws Exception {
    ClusterState state = twoWorkers(true);
    state.save(dir.resolve("cluster.properties"));
    ClusterState loaded = ClusterState.load(dir.resolve("cluster.properties")).orElseThrow();
    assertEquals(state, loaded);
    assertEquals("vv7-br", loaded.bridge());
    assertEquals("198.18.7.1", loaded.gateway());
    assertEquals(List.of("vv7-worker1", "vv7-worker2"), loaded.workers().stream().map(Host::name).toList());
    assertTrue(ClusterState.load(dir.resolve("none.properties")).isEmpty());
  }

  @Test
  void everyHostAndTheClientResolveEveryHostAndOnlyIn198Dot18() {
    String hosts = NamespaceNetwork.hostsFile(twoWorkers(true), "machine");
    assertTrue(hosts.contains("127.0.0.1\tlocalhost\n"), hosts);
    assertTrue(hosts.contains("198.18.7.1\tmachine\n"), hosts);
    assertTrue(hosts.contains("198.18.7.10\tvv7-master\n"), hosts);
    assertTrue(hosts.contains("198.18.7.12\tvv7-worker2\n"), hosts);
    assertEquals(List.of("ip", "netns", "exec", "vv7-worker1", "unshare", "--uts", "sh", "-c",
        "hostname \"$0\" && exec \"$@\"", "vv7-worker1"), NamespaceNetwork.onHost(twoWorkers(true).workers().get(0)));
  }

  @Test
  void theInstallationIsLaidOutAsApachesDistribution() {
    assertEquals("common", HadoopInstall.folderOf("hadoop-common-3.4.2.jar"));
    assertEquals("common/lib", HadoopInstall.folderOf("hadoop-auth-3.4.2.jar"));
    assertEquals("hdfs", HadoopInstall.folderOf("hadoop-hdfs-client-3.4.2.jar"));
    assertEquals("yarn", HadoopInstall.folderOf("hadoop-yarn-server-nodemanager-3.4.2.jar"));
    assertEquals("mapreduce", HadoopInstall.folderOf("hadoop-mapreduce-client-app-3.4.2.jar"));
    assertEquals("common/lib", HadoopInstall.folderOf("guava-27.0-jre.jar"));
    String classPath = new HadoopInstall(dir.resolve("hadoop")).classPath(dir.resolve("conf"));
    assertTrue(classPath.startsWith(dir.resolve("conf") + ":" + dir.resolve("hadoop/share/hadoop/common") + "/*:"),
        classPath);
  }

  @Test
  void containersGetTheInstallationsClassPathAndNeverTheClients() {
    ClusterFiles files = new ClusterFiles(dir);
    ClusterConfiguration configuration = new ClusterConfiguration(twoWorkers(true), files);
    SiteFiles client = configuration.clusterWide();
    assertEquals("yarn", client.mapred.get("mapreduce.framework.name"));
    assertEquals("hdfs://vv7-master:8020", client.core.get("fs.defaultFS"));
    assertEquals("HADOOP_MAPRED_HOME=" + dir.resolve("hadoop"), client.mapred.get("yarn.app.mapreduce.am.env"));
    assertTrue(client.mapred.get("mapreduce.application.classpath").startsWith("$HADOOP_MAPRED_HOME/share/hadoop/mapreduce/*"));
    assertTrue(client.yarn.get("yarn.nodemanager.env-whitelist").contains("HADOOP_MAPRED_HOME"));
    for (Configuration site : List.of(client.core, client.hdfs, client.yarn, client.mapred)) {
      assertNull(site.get("yarn.is.minicluster"));
      assertNull(site.get("yarn.application.classpath")); // YARN's default: the installation's
    }
    SiteFiles worker = configuration.forHost(twoWorkers(true).workers().get(1));
    assertEquals("vv7-worker2", worker.yarn.get("yarn.nodemanager.hostname"));
    assertEquals("198.18.7.12:9866", worker.hdfs.get("dfs.datanode.address"));
    assertEquals(dir.resolve("hosts/vv7-worker2/nm-local").toString(), worker.yarn.get("yarn.nodemanager.local-dirs"));
  }

  @Test
  void aHostsLinkIsCutRestoredOrReshapedAtBothEnds() {
    ClusterState state = twoWorkers(true);
    Host worker = HostFault.host(state, "vv7-worker2");
    assertEquals(List.of(List.of("ip", "link", "set", "vv7-worker2", "down")), HostFault.linkPlan(state, worker, "down"));
    assertEquals(List.of(List.of("ip", "link", "set", "vv7-worker2", "up")), HostFault.linkPlan(state, worker, "up"));
    List<List<String>> slow = HostFault.linkPlan(state, worker, "100mbit");
    assertEquals(6, slow.size(), slow.toString());
    assertEquals(List.of("tc", "qdisc", "del", "dev", "vv7-worker2", "root"), slow.get(0), "the shaping it had goes first");
    assertEquals(List.of("tc", "class", "replace", "dev", "vv7-worker2", "parent", "1:", "classid", "1:1", "htb",
        "rate", "100000000bit", "ceil", "100000000bit", "burst", "65536", "cburst", "65536", "quantum", "60000"), slow.get(3),
        "into the host, as up shapes it");
    assertEquals(List.of("tc", "-n", "vv7-worker2", "class", "replace", "dev", "eth0"), slow.get(5).subList(0, 7),
        "out of the host");
    assertEquals(List.of(List.of("tc", "qdisc", "del", "dev", "vv7-worker2", "root"),
        List.of("tc", "-n", "vv7-worker2", "qdisc", "del", "dev", "eth0", "root")),
        HostFault.linkPlan(state, worker, "none"));
    ClusterOptions link = ClusterOptions.parse(new String[] {"link", "--dir", "d", "--host", "vv7-worker2", "--to", "down"});
    assertEquals(ClusterOptions.Command.LINK, link.command());
    assertEquals("down", link.linkTo());
    assertEquals("vv7-worker1", ClusterOptions.parse(new String[] {"kill", "--dir", "d", "--host", "vv7-worker1"}).host());
    assertEquals("kill needs --host HOST", message("kill", "--dir", "d"));
    assertEquals("link needs --to down|up|none|RATE", message("link", "--dir", "d", "--host", "vv7-worker1"));
    assertTrue(message("link", "--dir", "d", "--host", "vv7-worker1", "--to", "sideways").contains("--link sideways"));
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> HostFault.host(state, "vv7-worker9"));
    assertTrue(unknown.getMessage().contains("[vv7-master, vv7-worker1, vv7-worker2]"), unknown.getMessage());
    assertThrows(IllegalArgumentException.class, () -> HostFault.linkPlan(twoWorkers(false), worker, "down"));
  }

  private static String message(String... args) {
    return assertThrows(IllegalArgumentException.class, () -> ClusterOptions.parse(args)).getMessage();
  }

  private static ClusterState twoWorkers(boolean namespaces) {
    Map<Daemon.Port, Integer> masterPorts = new EnumMap<>(Daemon.Port.class);
    Host.Role.MASTER.daemons.forEach(d -> d.ports.forEach(p -> masterPorts.put(p, p.standard)));
    Map<Daemon.Port, Integer> workerPorts = new EnumMap<>(Daemon.Port.class);
    Host.Role.WORKER.daemons.forEach(d -> d.ports.forEach(p -> workerPorts.put(p, p.standard)));
    return new ClusterState(namespaces, "vv7", 7, LinkRate.parse("1gbit"), 4, 3072, List.of(
        new Host("vv7-master", Host.Role.MASTER, "vv7-master", "198.18.7.10", masterPorts),
        new Host("vv7-worker1", Host.Role.WORKER, "vv7-worker1", "198.18.7.11", workerPorts),
        new Host("vv7-worker2", Host.Role.WORKER, "vv7-worker2", "198.18.7.12", workerPorts)));
  }
}
