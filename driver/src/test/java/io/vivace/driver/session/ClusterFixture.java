package io.vivace.driver.session;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;

/**
 * Apache's HDFS (MiniDFSCluster) and YARN with MapReduce (MiniMRYarnCluster) in this JVM, several
 * DataNodes and NodeManagers on this host (node names carry their ports, so that placement can be
 * seen): what a Vivace session runs on in the tests, beside MapReduce on YARN.
 */
final class ClusterFixture implements AutoCloseable {

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
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf, new File(dir, "dfs")).numDataNodes(nodes).build();
    dfs.waitActive();
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

  private static List<String> addOpens() {
    List<String> opens = new ArrayList<>();
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens")) {
        opens.add(arg);
      }
    }
    return opens;
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

  @Override
  public void close() throws IOException {
    yarn.stop();
    dfs.shutdown();
  }
}
