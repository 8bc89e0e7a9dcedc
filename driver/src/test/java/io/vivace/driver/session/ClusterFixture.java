package io.vivace.driver.session;

import io.vivace.driver.MiniYarnStop;
import io.vivace.driver.TestJit;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.net.DNSToSwitchMapping;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.TableMapping;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;

/**
 * Apache's HDFS (MiniDFSCluster) and YARN with MapReduce (MiniMRYarnCluster) in this JVM, several
 * DataNodes and NodeManagers on this host (node names carry their ports, so that placement can be
 * seen): what a Vivace session runs on in the tests, beside MapReduce on YARN.
 *
 * <p>So that the three kinds of map locality can be told apart on one machine, the DataNodes carry
 * host names of their own ({@link #dataNodeHost}): the first is the NodeManagers' host
 * ({@code localhost}), the second a host without a NodeManager in the same rack, the others hosts
 * without a NodeManager in racks of their own (Hadoop's {@link TableMapping} topology, which the
 * cluster and its clients share). Blocks are still read from the DataNodes' real address
 * (127.0.0.1), as HDFS clients use addresses, not names.
 */
final class ClusterFixture implements AutoCloseable {

  /** The NodeManagers' host, as YARN names it in containers' {@code NM_HOST}. */
  static final String NODE_MANAGER_HOST = "localhost";

  private final MiniDFSCluster dfs;
  private final MiniMRYarnCluster yarn;
  private final Configuration client;

  private ClusterFixture(MiniDFSCluster dfs, MiniMRYarnCluster yarn, Configuration client) {
    this.dfs = dfs;
    this.yarn = yarn;
    this.client = client;
  }

  static ClusterFixture start(File dir, int nodes) throws IOException {
    System.setProperty("test.build.data", new File(dir, "yarn").getAbsolutePath());
    Configuration conf = new Configuration();
    conf.set("hadoop.tmp.dir", new File(dir, "tmp").getAbsolutePath());
    conf.setInt("dfs.replication", 1);
    String[] hosts = new String[nodes];
    StringBuilder racks = new StringBuilder();
    for (int i = 0; i < nodes; i++) {
      hosts[i] = dataNodeHost(i);
      if (i >= 2) {
        racks.append(hosts[i]).append(' ').append(rackOf(i)).append('\n');
      }
    }
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf, new File(dir, "dfs")).numDataNodes(nodes).hosts(hosts)
        .build();
    dfs.waitActive();
    File topology = new File(dir, "topology.table");
    Files.writeString(topology.toPath(), racks, StandardCharsets.US_ASCII);
    conf.setClass(CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY, TableMapping.class,
        DNSToSwitchMapping.class);
    conf.set(CommonConfigurationKeysPublic.NET_TOPOLOGY_TABLE_MAPPING_FILE_KEY, topology.getAbsolutePath());
    conf.set(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY, dfs.getFileSystem().getUri().toString());
    conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    conf.setBoolean(YarnConfiguration.RM_SCHEDULER_INCLUDE_PORT_IN_NODE_NAME, true);
    conf.setInt(YarnConfiguration.NM_PMEM_MB, 3072);
    conf.setInt(YarnConfiguration.NM_VCORES, 4);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
    conf.setFloat(CapacitySchedulerConfiguration.MAXIMUM_APPLICATION_MASTERS_RESOURCE_PERCENT, 0.5f);
    conf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 99.0f);
    String opens = String.join(" ", addOpens());
    conf.setInt(MRJobConfig.MR_AM_VMEM_MB, 512);
    conf.set(MRJobConfig.MR_AM_COMMAND_OPTS, "-Xmx400m");
    conf.setInt(MRJobConfig.MAP_MEMORY_MB, 512);
    conf.setInt(MRJobConfig.REDUCE_MEMORY_MB, 512);
    conf.set(MRJobConfig.MR_AM_ADMIN_COMMAND_OPTS, opens);
    conf.set(MRJobConfig.MAPRED_MAP_ADMIN_JAVA_OPTS, opens);
    conf.set(MRJobConfig.MAPRED_REDUCE_ADMIN_JAVA_OPTS, opens);
    TestJit.giveContainers(conf);
    if (System.getenv("JAVA_HOME") == null) {
      conf.set(YarnConfiguration.NM_ADMIN_USER_ENV, conf.get(YarnConfiguration.NM_ADMIN_USER_ENV,
          YarnConfiguration.DEFAULT_NM_ADMIN_USER_ENV) + ",JAVA_HOME=" + System.getProperty("java.home"));
    }
    MiniMRYarnCluster yarn = new MiniMRYarnCluster("vivace-session-test", nodes);
    yarn.init(conf);
    yarn.start();
    Configuration client = new Configuration(yarn.getConfig());
    client.set(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY, conf.get(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY));
    client.setBoolean(YarnConfiguration.IS_MINI_YARN_CLUSTER, true);
    return new ClusterFixture(dfs, yarn, client);
  }

  /** The host name DataNode {@code i} registers with. */
  static String dataNodeHost(int i) {
    return i == 0 ? NODE_MANAGER_HOST : "dn" + i + ".vivace.test";
  }

  /** The rack of DataNode {@code i}'s host in the cluster's topology. */
  static String rackOf(int i) {
    return i < 2 ? NetworkTopology.DEFAULT_RACK : "/rack-" + i;
  }

  private static List<String> addOpens() {
    List<String> opens = new ArrayList<>();
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens")) {
        opens.add(arg);
      }
    }
    return opens;
  }

  /** A client configuration for jobs on the Vivace session named {@code name} on this cluster. */
  Configuration sessionConf(String name) {
    Configuration conf = sessionConf();
    conf.set("vivace.session.name", name);
    return conf;
  }

  /** A client configuration for jobs on a Vivace session on this cluster. */
  Configuration sessionConf() {
    Configuration conf = new Configuration(client);
    conf.set(MRConfig.FRAMEWORK_NAME, "vivace");
    conf.set("vivace.master", "yarn");
    conf.setInt("vivace.session.executor.memory.mb", 512);
    conf.setInt("vivace.session.am.memory.mb", 512);
    return conf;
  }

  /** A client configuration for the embedded engine of this JVM, on this cluster's file system. */
  Configuration embeddedConf() {
    Configuration conf = new Configuration(client);
    conf.set(MRConfig.FRAMEWORK_NAME, "vivace");
    return conf;
  }

  /** A client configuration for MapReduce on this YARN cluster. */
  Configuration yarnConf() {
    Configuration conf = new Configuration(client);
    conf.set(MRConfig.FRAMEWORK_NAME, MRConfig.YARN_FRAMEWORK_NAME);
    return conf;
  }

  MiniDFSCluster dfs() {
    return dfs;
  }

  MiniMRYarnCluster yarn() {
    return yarn;
  }

  /** Stops the clusters, and any container process of theirs the NodeManagers left running. */
  @Override
  public void close() {
    stop(yarn, dfs);
  }

  /** Stops a YARN and an HDFS mini-cluster, and any container process of theirs the NodeManagers left running. */
  static void stop(MiniMRYarnCluster yarn, MiniDFSCluster dfs) {
    String mark = System.getProperty("test.build.data");
    List<ProcessHandle> containers = ProcessHandle.current().descendants()
        .filter(p -> p.info().commandLine().orElse("").contains(mark)).toList();
    try {
      MiniYarnStop.stop(yarn);
      dfs.shutdown();
    } finally {
      for (ProcessHandle container : containers) {
        container.destroyForcibly();
      }
    }
  }
}
