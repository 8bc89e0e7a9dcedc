package io.vivace.driver.session;

import io.vivace.driver.TestJit;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.ssl.KeyStoreTestUtil;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;

/**
 * A secure HDFS and YARN with MapReduce in this JVM, as production clusters run: Kerberos logins
 * ({@link KerberosRealm}) for the daemons and the users, block access tokens, SASL on the DataNodes'
 * data transfer ({@code dfs.data.transfer.protection=authentication}, so the DataNodes need no
 * privileged ports) and HTTPS for HDFS's web servers (keystores made by Hadoop's
 * {@link KeyStoreTestUtil}, its {@code ssl-server.xml} and {@code ssl-client.xml} in this module's
 * test classes, where Hadoop looks for them on the class path). One DataNode, two NodeManagers.
 *
 * <p>Delegation tokens must be renewed every {@code renewIntervalMillis}
 * ({@code dfs.namenode.delegation.token.renew-interval}): a short one shows that what holds tokens
 * has them renewed.
 *
 * <p>YARN runs containers with its {@code DefaultContainerExecutor}, as the NodeManager's own OS
 * user (this JVM's), not as the application's user as {@code LinuxContainerExecutor} would: the
 * containers' identity towards HDFS is the delegation tokens they are given, whatever their OS user.
 *
 * <p>MapReduce on YARN runs only map-only jobs here: on a secure cluster its shuffle (the
 * NodeManagers' and a reduce's local one) opens map outputs through Hadoop's {@code SecureIOUtils},
 * which checks their owners with libhadoop's {@code fstat}, and this machine has no libhadoop.
 */
final class SecureClusterFixture implements AutoCloseable {

  /** The class path resource of the nodes' site settings ({@link #nodeSiteFile}). */
  private static final String SITE_RESOURCE = "vivace-secure-cluster-site.xml";

  private final KerberosRealm realm;
  private final MiniDFSCluster dfs;
  private final MiniMRYarnCluster yarn;
  private final Configuration client;
  private final String keystores;
  private final String sslConfDir;
  private final File siteFile;

  private SecureClusterFixture(KerberosRealm realm, MiniDFSCluster dfs, MiniMRYarnCluster yarn, Configuration client,
                               String keystores, String sslConfDir, File siteFile) {
    this.realm = realm;
    this.dfs = dfs;
    this.yarn = yarn;
    this.client = client;
    this.keystores = keystores;
    this.sslConfDir = sslConfDir;
    this.siteFile = siteFile;
  }

  static SecureClusterFixture start(File dir, long renewIntervalMillis) throws Exception {
    KerberosRealm realm = KerberosRealm.start(dir);
    String daemon = realm.principal(KerberosRealm.DAEMON);
    String daemonKeytab = realm.keytab(KerberosRealm.DAEMON).getAbsolutePath();
    System.setProperty("test.build.data", new File(dir, "yarn").getAbsolutePath());
    Configuration conf = new Configuration();
    conf.set("hadoop.tmp.dir", new File(dir, "tmp").getAbsolutePath());
    conf.set(CommonConfigurationKeysPublic.HADOOP_SECURITY_AUTHENTICATION, "kerberos");
    conf.setInt("dfs.replication", 1);
    conf.set("dfs.namenode.kerberos.principal", daemon);
    conf.set("dfs.namenode.keytab.file", daemonKeytab);
    conf.set("dfs.datanode.kerberos.principal", daemon);
    conf.set("dfs.datanode.keytab.file", daemonKeytab);
    conf.set("dfs.web.authentication.kerberos.principal", realm.principal(KerberosRealm.HTTP));
    conf.set("dfs.web.authentication.kerberos.keytab", daemonKeytab);
    conf.setBoolean("dfs.block.access.token.enable", true);
    conf.set("dfs.data.transfer.protection", "authentication");
    conf.set("dfs.http.policy", "HTTPS_ONLY");
    conf.set("dfs.namenode.https-address", KerberosRealm.HOST + ":0");
    conf.set("dfs.datanode.https.address", KerberosRealm.HOST + ":0");
    conf.setLong("dfs.namenode.delegation.token.renew-interval", renewIntervalMillis);
    String keystores = new File(dir, "keystores").getAbsolutePath();
    new File(keystores).mkdirs();
    String sslConfDir = KeyStoreTestUtil.getClasspathDir(SecureClusterFixture.class);
    KeyStoreTestUtil.setupSSLConfig(keystores, sslConfDir, conf, false);
    conf.set("dfs.client.https.keystore.resource", KeyStoreTestUtil.getClientSSLConfigFileName());
    conf.set("dfs.https.server.keystore.resource", KeyStoreTestUtil.getServerSSLConfigFileName());
    conf.set(YarnConfiguration.RM_PRINCIPAL, daemon);
    conf.set(YarnConfiguration.RM_KEYTAB, daemonKeytab);
    conf.set(YarnConfiguration.NM_PRINCIPAL, daemon);
    conf.set(YarnConfiguration.NM_KEYTAB, daemonKeytab);
    conf.set("mapreduce.jobhistory.principal", daemon);
    conf.set("mapreduce.jobhistory.keytab", daemonKeytab);
    UserGroupInformation.setConfiguration(conf);

    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf, new File(dir, "dfs")).numDataNodes(1).build();
    dfs.waitActive();
    conf.set(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY, dfs.getFileSystem().getUri().toString());
    realm.login(KerberosRealm.DAEMON).doAs((PrivilegedExceptionAction<Void>) () -> {
      FileSystem admin = FileSystem.get(conf);
      for (String user : List.of(KerberosRealm.USER1, KerberosRealm.USER2)) {
        Path home = new Path("/user/" + user);
        admin.mkdirs(home, new FsPermission((short) 0755));
        admin.setOwner(home, user, user);
      }
      return null;
    });

    File siteFile = nodeSiteFile(sslConfDir, conf);

    conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    conf.setBoolean(YarnConfiguration.RM_SCHEDULER_INCLUDE_PORT_IN_NODE_NAME, true);
    conf.setInt(YarnConfiguration.NM_PMEM_MB, 3072);
    conf.setInt(YarnConfiguration.NM_VCORES, 4);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
    conf.setFloat(CapacitySchedulerConfiguration.MAXIMUM_APPLICATION_MASTERS_RESOURCE_PERCENT, 0.5f);
    conf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 99.0f);
    // MapReduce's containers: the add-opens of this JVM, and its Kerberos configuration (they share its host)
    String options = String.join(" ", jvmOptions(realm));
    conf.setInt(MRJobConfig.MR_AM_VMEM_MB, 512);
    conf.set(MRJobConfig.MR_AM_COMMAND_OPTS, "-Xmx400m");
    conf.setInt(MRJobConfig.MAP_MEMORY_MB, 512);
    conf.setInt(MRJobConfig.REDUCE_MEMORY_MB, 512);
    conf.set(MRJobConfig.MR_AM_ADMIN_COMMAND_OPTS, options);
    conf.set(MRJobConfig.MAPRED_MAP_ADMIN_JAVA_OPTS, options);
    conf.set(MRJobConfig.MAPRED_REDUCE_ADMIN_JAVA_OPTS, options);
    TestJit.giveContainers(conf);
    if (System.getenv("JAVA_HOME") == null) {
      conf.set(YarnConfiguration.NM_ADMIN_USER_ENV, conf.get(YarnConfiguration.NM_ADMIN_USER_ENV,
          YarnConfiguration.DEFAULT_NM_ADMIN_USER_ENV) + ",JAVA_HOME=" + System.getProperty("java.home"));
    }
    MiniMRYarnCluster yarn = new MiniMRYarnCluster("vivace-secure-test", 2);
    yarn.init(conf);
    yarn.start();
    Configuration client = new Configuration(yarn.getConfig());
    client.set(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY, conf.get(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY));
    client.setBoolean(YarnConfiguration.IS_MINI_YARN_CLUSTER, true);
    return new SecureClusterFixture(realm, dfs, yarn, client, keystores, sslConfDir, siteFile);
  }

  /**
   * What the daemons' own fresh configurations must find in a node's site files: YARN's
   * NodeManager localises containers' files from HDFS with a configuration read from the class path
   * (not its own), so its HDFS client would skip the SASL handshake that the DataNodes require.
   * Written into the test classes under a name only this JVM reads (a default resource of its
   * configurations), as a real node's {@code hdfs-site.xml} is in its configuration folder.
   */
  private static File nodeSiteFile(String classPathDir, Configuration cluster) throws IOException {
    File file = new File(classPathDir, SITE_RESOURCE);
    Configuration site = new Configuration(false);
    site.set("dfs.data.transfer.protection", cluster.get("dfs.data.transfer.protection"));
    try (OutputStream out = new FileOutputStream(file)) {
      site.writeXml(out);
    }
    Configuration.addDefaultResource(SITE_RESOURCE);
    return file;
  }

  private static List<String> jvmOptions(KerberosRealm realm) {
    List<String> options = new ArrayList<>();
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens")) {
        options.add(arg);
      }
    }
    options.add("-Djava.security.krb5.conf=" + realm.krb5Conf().getAbsolutePath());
    return options;
  }

  KerberosRealm realm() {
    return realm;
  }

  /** A client configuration for MapReduce on this YARN cluster. */
  Configuration yarnConf() {
    Configuration conf = new Configuration(client);
    conf.set(MRConfig.FRAMEWORK_NAME, MRConfig.YARN_FRAMEWORK_NAME);
    return conf;
  }

  /** A client configuration for the embedded engine of this JVM, on this cluster's file system. */
  Configuration embeddedConf() {
    Configuration conf = new Configuration(client);
    conf.set(MRConfig.FRAMEWORK_NAME, "vivace");
    return conf;
  }

  /** A client configuration for jobs on the Vivace session named {@code name} on this cluster. */
  Configuration sessionConf(String name) {
    Configuration conf = new Configuration(client);
    conf.set(MRConfig.FRAMEWORK_NAME, "vivace");
    conf.set("vivace.master", "yarn");
    conf.set("vivace.session.name", name);
    conf.setInt("vivace.session.executor.memory.mb", 512);
    conf.setInt("vivace.session.am.memory.mb", 512);
    return conf;
  }

  MiniDFSCluster dfs() {
    return dfs;
  }

  MiniMRYarnCluster yarn() {
    return yarn;
  }

  /** Stops the clusters (and any container process of theirs left running), the KDC, and removes the SSL files. */
  @Override
  public void close() throws Exception {
    try {
      ClusterFixture.stop(yarn, dfs);
    } finally {
      realm.close();
      KeyStoreTestUtil.cleanupSSLConfig(keystores, sslConfDir);
      Files.deleteIfExists(siteFile.toPath());
    }
  }
}
