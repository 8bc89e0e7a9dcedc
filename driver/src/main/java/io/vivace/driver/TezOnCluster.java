package io.vivace.driver;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.tez.client.TezApiVersionInfo;
import org.apache.tez.dag.api.TezConfiguration;

/**
 * Apache Tez on the mini-cluster, installed as Tez's documentation installs it on a cluster: its
 * jars copied to HDFS once ({@code /apps/tez-VERSION}, world-readable, so that each NodeManager
 * localises them once for every application) and named by {@code tez.lib.uris}; Hadoop's own jars
 * and the third-party libraries both need come from the cluster's class path
 * ({@code tez.use.cluster.hadoop-libs=true} with {@code yarn.application.classpath}), as with
 * Tez's "minimal" tarball. Here that class path is this JVM's, without Tez's jars, after a folder
 * holding the cluster's {@code yarn-site.xml}.
 *
 * <p>The jars are the {@code org.apache.tez} artifacts of the driver's build, listed by Maven in
 * the resource {@value #JARS_RESOURCE}. MapReduce jobs run on Tez with the configuration
 * {@link #clientConfiguration} returns: {@code mapreduce.framework.name=yarn-tez}, Tez's
 * ApplicationMaster per job with container reuse as Tez ships it, and its history written as JSON
 * lines to {@value #HISTORY_DIR} on HDFS ({@link TezHistory} reads the counters and task attempts
 * from there, which the MapReduce client of Tez does not give).
 */
final class TezOnCluster {

  /** {@code mapreduce.framework.name} of MapReduce jobs on Tez. */
  static final String FRAMEWORK_NAME =
      org.apache.tez.mapreduce.hadoop.MRConfig.YARN_TEZ_FRAMEWORK_NAME;
  static final String JARS_RESOURCE = "tez-classpath.txt";
  static final String HISTORY_DIR = "/tez/history";
  private static final String LIB_ROOT = "/apps/tez-";
  private static final FsPermission PUBLIC_DIR = new FsPermission((short) 0755);
  private static final FsPermission PUBLIC_FILE = new FsPermission((short) 0644);

  private TezOnCluster() {}

  /** Tez's version, as its API jar says. */
  static String version() {
    return new TezApiVersionInfo().getVersion();
  }

  /** The jars of Tez on this JVM's class path, as the build listed them. */
  static List<File> jars() throws IOException {
    String listed;
    try (InputStream in = TezOnCluster.class.getResourceAsStream(JARS_RESOURCE)) {
      if (in == null) {
        throw new IOException("the driver's build left no list of Tez's jars ("
            + JARS_RESOURCE + " beside " + TezOnCluster.class.getName() + ")");
      }
      listed = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
    }
    List<File> jars = new ArrayList<>();
    for (String entry : listed.split(File.pathSeparator)) {
      File jar = new File(entry);
      if (!jar.isFile()) {
        throw new IOException("Tez's jar " + jar + " (listed by the driver's build) is missing");
      }
      jars.add(jar);
    }
    return jars;
  }

  /**
   * Copies Tez's jars to HDFS and returns the configuration a client adds to the cluster's to run
   * MapReduce jobs on Tez. {@code confDir} is the folder with the cluster's {@code yarn-site.xml}.
   */
  static Configuration stage(Configuration cluster, File confDir) throws IOException {
    FileSystem fs = FileSystem.get(cluster);
    List<File> jars = jars();
    Path lib = fs.makeQualified(new Path(LIB_ROOT + version()));
    fs.mkdirs(lib);
    fs.setPermission(lib.getParent(), PUBLIC_DIR);
    fs.setPermission(lib, PUBLIC_DIR);
    for (File jar : jars) {
      Path target = new Path(lib, jar.getName());
      fs.copyFromLocalFile(false, true, new Path(jar.toURI()), target);
      fs.setPermission(target, PUBLIC_FILE);
    }
    Path history = fs.makeQualified(new Path(HISTORY_DIR));
    fs.mkdirs(history, new FsPermission((short) 0777));

    Configuration tez = new Configuration(false);
    tez.set(MRConfig.FRAMEWORK_NAME, FRAMEWORK_NAME);
    tez.set(TezConfiguration.TEZ_LIB_URIS, lib.toString());
    tez.setBoolean(TezConfiguration.TEZ_USE_CLUSTER_HADOOP_LIBS, true);
    tez.setStrings(YarnConfiguration.YARN_APPLICATION_CLASSPATH,
        clusterClassPath(confDir, jars).toArray(new String[0]));
    tez.set(TezConfiguration.TEZ_SIMPLE_HISTORY_LOGGING_DIR, history.toString());
    return tez;
  }

  /** The cluster's folder of configuration, then this JVM's class path without Tez's jars. */
  private static Set<String> clusterClassPath(File confDir, List<File> tezJars) throws IOException {
    Set<String> tez = new LinkedHashSet<>();
    for (File jar : tezJars) {
      tez.add(jar.getCanonicalPath());
    }
    Set<String> entries = new LinkedHashSet<>();
    entries.add(confDir.getAbsolutePath());
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (!entry.isEmpty() && !tez.contains(new File(entry).getCanonicalPath())) {
        entries.add(entry);
      }
    }
    return entries;
  }
}
