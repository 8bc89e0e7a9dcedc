package io.vivace.realcluster;

import io.vivace.realcluster.Daemon.Port;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * The cluster's configuration, as its administrator would write it: the client's folder (what a
 * cluster hands its users as {@code HADOOP_CONF_DIR}, {@code mapreduce.framework.name=yarn}
 * included) and each host's, which adds that host's addresses and folders. Containers find
 * Hadoop where a cluster's do: the installation's {@code share/hadoop} folders through
 * {@code yarn.application.classpath}'s default and {@code HADOOP_MAPRED_HOME} for MapReduce, set as
 * Apache's cluster set-up guide sets it.
 */
final class ClusterConfiguration {

  static final int AM_MEMORY_MB = 512;
  static final int TASK_MEMORY_MB = 512;
  static final long DATANODE_RECHECK_MS = 30_000;
  static final long NODEMANAGER_EXPIRY_MS = 90_000;
  static final String ENV_WHITELIST = "JAVA_HOME,HADOOP_COMMON_HOME,HADOOP_HDFS_HOME,HADOOP_CONF_DIR,"
      + "CLASSPATH_PREPEND_DISTCACHE,HADOOP_YARN_HOME,HADOOP_HOME,PATH,LANG,TZ,HADOOP_MAPRED_HOME";

  private final ClusterState state;
  private final ClusterFiles files;

  ClusterConfiguration(ClusterState state, ClusterFiles files) {
    this.state = state;
    this.files = files;
  }

  /** Writes the client's folder and every host's. */
  void write() throws IOException {
    Path client = files.clientConf();
    clusterWide().writeTo(client);
    writeLog4j(client, "console");
    Files.writeString(client.resolve("hadoop-env.sh"), clientEnvironment(), StandardCharsets.UTF_8);
    for (Host host : state.hosts()) {
      Path dir = files.hostConf(host);
      forHost(host).writeTo(dir);
      writeLog4j(dir, "RFA");
      if (host.role() == Host.Role.MASTER) {
        SiteFiles.write(dir.resolve("capacity-scheduler.xml"), capacityScheduler());
      }
    }
  }

  /** The keys every host and the client share. */
  SiteFiles clusterWide() {
    Host master = state.master();
    SiteFiles site = new SiteFiles();
    site.core.set("fs.defaultFS", "hdfs://" + master.endpoint(Port.NAMENODE_RPC));

    site.hdfs.setInt("dfs.replication", Math.min(3, state.workers().size()));
    site.hdfs.set("dfs.namenode.rpc-address", master.endpoint(Port.NAMENODE_RPC));
    site.hdfs.set("dfs.namenode.http-address", master.endpoint(Port.NAMENODE_HTTP));
    // A DataNode is taken for dead after two rechecks and ten heartbeats: 90 s here, not Apache's
    // 10.5 minutes, so that HDFS re-replicates a lost host's blocks within a fault test's wait.
    site.hdfs.setLong("dfs.namenode.heartbeat.recheck-interval", DATANODE_RECHECK_MS);

    Configuration yarn = site.yarn;
    yarn.set("yarn.resourcemanager.hostname", master.hostname());
    yarn.set("yarn.resourcemanager.address", master.endpoint(Port.RM_CLIENT));
    yarn.set("yarn.resourcemanager.scheduler.address", master.endpoint(Port.RM_SCHEDULER));
    yarn.set("yarn.resourcemanager.resource-tracker.address", master.endpoint(Port.RM_TRACKER));
    yarn.set("yarn.resourcemanager.admin.address", master.endpoint(Port.RM_ADMIN));
    yarn.set("yarn.resourcemanager.webapp.address", master.endpoint(Port.RM_WEB));
    // A NodeManager without heartbeats is taken for lost after 90 s, as a DataNode is, not Apache's 10
    // minutes: until then MapReduce's application master never hears that the lost host's containers ended.
    yarn.setLong("yarn.nm.liveness-monitor.expiry-interval-ms", NODEMANAGER_EXPIRY_MS);
    yarn.set("yarn.nodemanager.aux-services", "mapreduce_shuffle");
    yarn.set("yarn.nodemanager.aux-services.mapreduce_shuffle.class", "org.apache.hadoop.mapred.ShuffleHandler");
    yarn.set("yarn.nodemanager.env-whitelist", ENV_WHITELIST);
    yarn.setInt("yarn.nodemanager.resource.memory-mb", state.memoryMb());
    yarn.setInt("yarn.nodemanager.resource.cpu-vcores", state.cores());
    yarn.setInt("yarn.scheduler.minimum-allocation-mb", 128);
    yarn.setInt("yarn.scheduler.maximum-allocation-mb", state.memoryMb());
    yarn.setInt("yarn.scheduler.maximum-allocation-vcores", state.cores());
    // Java 17 reserves far more virtual memory than YARN's 2.1 ratio allows.
    yarn.setBoolean("yarn.nodemanager.vmem-check-enabled", false);
    // The hosts share one disk: YARN's 90% default would mark it bad on a fuller machine.
    yarn.setFloat("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", 99.0f);
    yarn.setBoolean("yarn.log-aggregation-enable", true);
    yarn.set("yarn.log.server.url", "http://" + master.endpoint(Port.JHS_WEB) + "/jobhistory/logs");
    if (!state.namespaces()) {
      // Every NodeManager on one host name: the scheduler tells them apart by port.
      yarn.setBoolean("yarn.scheduler.include-port-in-node-name", true);
    }

    Configuration mapred = site.mapred;
    mapred.set("mapreduce.framework.name", "yarn");
    mapred.set("mapreduce.jobhistory.address", master.endpoint(Port.JHS_IPC));
    mapred.set("mapreduce.jobhistory.webapp.address", master.endpoint(Port.JHS_WEB));
    mapred.set("mapreduce.jobhistory.admin.address", master.endpoint(Port.JHS_ADMIN));
    String mapredHome = "HADOOP_MAPRED_HOME=" + files.hadoopHome();
    mapred.set("yarn.app.mapreduce.am.env", mapredHome);
    mapred.set("mapreduce.map.env", mapredHome);
    mapred.set("mapreduce.reduce.env", mapredHome);
    mapred.set("mapreduce.application.classpath",
        "$HADOOP_MAPRED_HOME/share/hadoop/mapreduce/*,$HADOOP_MAPRED_HOME/share/hadoop/mapreduce/lib/*");
    mapred.setInt("yarn.app.mapreduce.am.resource.mb", AM_MEMORY_MB);
    mapred.set("yarn.app.mapreduce.am.command-opts", "-Xmx" + heapMb(AM_MEMORY_MB) + "m");
    mapred.setInt("mapreduce.map.memory.mb", TASK_MEMORY_MB);
    mapred.setInt("mapreduce.reduce.memory.mb", TASK_MEMORY_MB);
    // What an administrator running Hadoop 3.4 on Java 17 adds: Hadoop's reflection into the JDK.
    String opens = String.join(" ", addOpensOptions());
    mapred.set("yarn.app.mapreduce.am.admin-command-opts", "-Djava.net.preferIPv4Stack=true " + opens);
    mapred.set("mapreduce.admin.map.child.java.opts",
        "-Djava.net.preferIPv4Stack=true -Dhadoop.metrics.log.level=WARN " + opens);
    mapred.set("mapreduce.admin.reduce.child.java.opts",
        "-Djava.net.preferIPv4Stack=true -Dhadoop.metrics.log.level=WARN " + opens);
    return site;
  }

  /** The cluster's keys and the host's own: its addresses, its data and local folders. */
  SiteFiles forHost(Host host) {
    SiteFiles site = clusterWide();
    Path home = files.host(host);
    site.core.set("hadoop.tmp.dir", home.resolve("tmp").toString());
    if (host.role() == Host.Role.MASTER) {
      site.hdfs.set("dfs.namenode.name.dir", files.hostData(host).resolve("name").toUri().toString());
      site.mapred.set("mapreduce.jobhistory.recovery.store.leveldb.path", home.resolve("jhs").toString());
      return site;
    }
    site.hdfs.set("dfs.datanode.data.dir", files.hostData(host).resolve("dn").toUri().toString());
    site.hdfs.set("dfs.datanode.hostname", host.hostname());
    site.hdfs.set("dfs.datanode.address", host.address() + ":" + host.port(Port.DATANODE_DATA));
    site.hdfs.set("dfs.datanode.http.address", host.address() + ":" + host.port(Port.DATANODE_HTTP));
    site.hdfs.set("dfs.datanode.ipc.address", host.address() + ":" + host.port(Port.DATANODE_IPC));
    Configuration yarn = site.yarn;
    yarn.set("yarn.nodemanager.hostname", host.hostname());
    yarn.set("yarn.nodemanager.address", host.endpoint(Port.NM_IPC));
    yarn.set("yarn.nodemanager.localizer.address", host.endpoint(Port.NM_LOCALIZER));
    yarn.set("yarn.nodemanager.webapp.address", host.endpoint(Port.NM_WEB));
    yarn.set("yarn.nodemanager.local-dirs", home.resolve("nm-local").toString());
    yarn.set("yarn.nodemanager.log-dirs", home.resolve("nm-logs").toString());
    site.mapred.setInt("mapreduce.shuffle.port", host.port(Port.SHUFFLE));
    return site;
  }

  /** One queue with all of the cluster; half of it may go to application masters. */
  private static Configuration capacityScheduler() {
    Configuration conf = new Configuration(false);
    conf.set("yarn.scheduler.capacity.root.queues", "default");
    conf.set("yarn.scheduler.capacity.root.default.capacity", "100");
    conf.set("yarn.scheduler.capacity.root.default.maximum-capacity", "100");
    conf.set("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
    return conf;
  }

  /**
   * The client's JVMs resolve the hosts' names through a hosts file of their own
   * ({@code jdk.net.hosts.file}), as the hosts do through {@code /etc/netns/<host>/hosts}; Apache's
   * {@code hadoop} command reads this file from {@code HADOOP_CONF_DIR}, and {@code ./vivace} takes
   * the same {@code HADOOP_CLIENT_OPTS}.
   */
  private String clientEnvironment() {
    return "# Written by `vivace cluster up`: the client's JVMs resolve the cluster's host names with\n"
        + "# the hosts file beside this one, leaving the machine's /etc/hosts alone.\n"
        + "export HADOOP_CLIENT_OPTS=\"" + clientJvmOption(files) + " ${HADOOP_CLIENT_OPTS:-}\"\n";
  }

  static String clientJvmOption(ClusterFiles files) {
    return "-Djdk.net.hosts.file=" + files.clientHosts();
  }

  /** Apache's {@code log4j.properties} in brief: the console for clients, a rolling file for daemons. */
  private static void writeLog4j(Path dir, String appender) throws IOException {
    String text = String.join("\n",
        "hadoop.root.logger=INFO," + appender,
        "hadoop.log.dir=.",
        "hadoop.log.file=hadoop.log",
        "log4j.rootLogger=${hadoop.root.logger}",
        "log4j.threshold=ALL",
        "log4j.appender.console=org.apache.log4j.ConsoleAppender",
        "log4j.appender.console.target=System.err",
        "log4j.appender.console.layout=org.apache.log4j.PatternLayout",
        "log4j.appender.console.layout.ConversionPattern=%d{yy/MM/dd HH:mm:ss} %p %c{2}: %m%n",
        "log4j.appender.RFA=org.apache.log4j.RollingFileAppender",
        "log4j.appender.RFA.File=${hadoop.log.dir}/${hadoop.log.file}",
        "log4j.appender.RFA.MaxFileSize=64MB",
        "log4j.appender.RFA.MaxBackupIndex=4",
        "log4j.appender.RFA.layout=org.apache.log4j.PatternLayout",
        "log4j.appender.RFA.layout.ConversionPattern=%d{ISO8601} %p %c: %m%n",
        "log4j.appender.NullAppender=org.apache.log4j.varia.NullAppender",
        "log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR",
        "");
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("log4j.properties"), text, StandardCharsets.UTF_8);
  }

  /** Heap for a JVM in a container: Hadoop's 0.8 of the container, as for tasks. */
  static int heapMb(int containerMb) {
    return containerMb * 4 / 5;
  }

  /** The {@code --add-opens} options this JVM runs with (the launcher's list). */
  static List<String> addOpensOptions() {
    List<String> opens = new ArrayList<>();
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens")) {
        opens.add(arg);
      }
    }
    return opens;
  }
}
