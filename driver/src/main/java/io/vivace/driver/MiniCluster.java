package io.vivace.driver;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
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
import sun.misc.Signal;

/**
 * Apache's engines on a real cluster for the driver to compare with: HDFS (MiniDFSCluster,
 * {@code --datanodes} DataNodes, replication 1) and YARN with MapReduce (MiniMRYarnCluster:
 * ResourceManager, {@code --nodemanagers} NodeManagers with the shuffle service, JobHistoryServer),
 * all on loopback in this JVM, every file under {@code --dir}; Apache Tez's jars staged on HDFS
 * ({@link TezOnCluster}). With more than one NodeManager, YARN names nodes by host and port
 * ({@code yarn.scheduler.include-port-in-node-name=true}), so that the NodeManagers of this one
 * host are nodes of their own to the scheduler.
 *
 * <p>Once both run, it writes the client configuration ({@code fs.defaultFS=hdfs://...}, the
 * ResourceManager's and history server's addresses, {@code mapreduce.framework.name=yarn}) to
 * {@code --conf-out}, the same as {@code yarn-site.xml} in {@code DIR/conf} (a folder on the
 * cluster's class path for Tez), the configuration that runs MapReduce jobs on Tez beside
 * {@code --conf-out} ({@link #tezConfFile}), prints {@code READY <file>} as the only line on stdout
 * and waits. It stops, cleanly, when stdin reaches end of file (the parent closed it or died) or on
 * SIGTERM; shutting down takes ~20 s, and a watchdog halts the JVM after
 * {@value #SHUTDOWN_LIMIT_SECONDS} s since the clusters' non-daemon threads would otherwise keep a
 * stuck JVM alive. Whatever way it stops, no container process outlives it: what the NodeManagers
 * did not stop (a Vivace session's master and executors, any application's), it ends itself. Exit status: 0 after stdin closed (143 after SIGTERM, as for any JVM), 1 when
 * the clusters did not start (no READY line), 2 on a bad command line.
 *
 * <p>Containers (ApplicationMaster, tasks) are JVMs of their own. With {@code yarn.is.minicluster}
 * set, MapReduce's job client gives them its own {@code java.class.path}, so whatever the driver can
 * run, they can load; they also get this JVM's {@code --add-opens} options and, when the environment
 * has no JAVA_HOME, this JVM's Java.
 */
public final class MiniCluster {

  static final int SHUTDOWN_LIMIT_SECONDS = 60;
  private static final long LEFTOVER_GRACE_NANOS = 5_000_000_000L;
  private static final String NAME = "vivace-minicluster";

  private final MiniClusterOptions options;
  private volatile MiniDFSCluster dfs;
  private volatile MiniMRYarnCluster yarn;
  private boolean stopped;

  private MiniCluster(MiniClusterOptions options) {
    this.options = options;
  }

  public static void main(String[] args) {
    MiniClusterOptions options;
    try {
      options = MiniClusterOptions.parse(args);
    } catch (UsageException e) {
      System.err.println("minicluster: " + e.getMessage());
      System.err.println(MiniClusterOptions.USAGE);
      System.exit(2);
      return;
    }
    // Only the READY line goes to stdout: the parent reads it there.
    PrintStream ready = System.out;
    System.setOut(System.err);

    MiniCluster cluster = new MiniCluster(options);
    stopOnSignal(cluster, "TERM", 143);
    stopOnSignal(cluster, "INT", 130);
    // Any other way out still stops the clusters, less cleanly (see main's end).
    Runtime.getRuntime().addShutdownHook(new Thread(cluster::stop, NAME + "-shutdown"));
    try {
      cluster.start();
    } catch (Throwable e) {
      System.err.println("minicluster: failed to start: " + e);
      e.printStackTrace();
      cluster.stop();
      System.exit(1);
    }
    ready.println("READY " + options.confOut());
    ready.flush();
    waitForEndOfInput();
    System.err.println("minicluster: stdin closed, stopping");
    // Here rather than in the shutdown hook: during JVM shutdown Hadoop's own shutdown hooks can no
    // longer be removed, and the clusters' stop methods try to.
    cluster.stop();
    System.exit(0);
  }

  /**
   * Stops the clusters when the signal comes, as end of input does, and then exits with the shell's
   * status for it (128 + the signal's number). Where the JVM cannot handle the signal, its shutdown
   * hook stops them.
   */
  private static void stopOnSignal(MiniCluster cluster, String signal, int exitStatus) {
    try {
      Signal.handle(new Signal(signal), received -> {
        System.err.println("minicluster: SIG" + signal + ", stopping");
        cluster.stop();
        System.exit(exitStatus);
      });
    } catch (IllegalArgumentException e) {
      // not available here (or the JVM's own): the shutdown hook stops the clusters
    }
  }

  private static void waitForEndOfInput() {
    byte[] buffer = new byte[256];
    try {
      InputStream in = System.in;
      while (in.read(buffer) >= 0) {
        // anything written to stdin is ignored
      }
    } catch (IOException e) {
      // a broken stdin means the parent is gone, too
    }
  }

  private void start() throws IOException {
    File dir = options.dir().toFile();
    // MiniYARNCluster keeps its work directory under the test data directory.
    System.setProperty("test.build.data", new File(dir, "yarn").getAbsolutePath());
    Configuration conf = new Configuration();
    conf.set("hadoop.tmp.dir", new File(dir, "tmp").getAbsolutePath());
    conf.setInt("dfs.replication", 1);

    System.err.println("minicluster: starting HDFS under " + dir);
    dfs = new MiniDFSCluster.Builder(conf, new File(dir, "dfs"))
        .numDataNodes(options.dataNodes()).build();
    dfs.waitActive();
    conf.set(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY,
        dfs.getFileSystem().getUri().toString());

    configureYarn(conf);
    System.err.println("minicluster: starting YARN");
    MiniMRYarnCluster mr = new MiniMRYarnCluster(NAME, options.nodeManagers());
    yarn = mr;
    mr.init(conf);
    mr.start();

    Configuration client = new Configuration(mr.getConfig());
    client.set(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY,
        conf.get(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY));
    client.set(MRConfig.FRAMEWORK_NAME, MRConfig.YARN_FRAMEWORK_NAME);
    client.setBoolean(YarnConfiguration.IS_MINI_YARN_CLUSTER, true);
    File confDir = new File(dir, "conf");
    AtomicFiles.write(confDir.toPath().resolve("yarn-site.xml"), client::writeXml);
    System.err.println("minicluster: staging Apache Tez " + TezOnCluster.version() + " on HDFS");
    Configuration tez = TezOnCluster.stage(client, confDir);
    AtomicFiles.write(tezConfFile(options.confOut()), tez::writeXml);
    AtomicFiles.write(options.confOut(), client::writeXml);
    System.err.println("minicluster: HDFS at "
        + client.get(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY) + " ("
        + options.dataNodes() + " DataNodes), ResourceManager at "
        + client.get(YarnConfiguration.RM_ADDRESS) + " (" + options.nodeManagers()
        + " NodeManagers); client configuration in " + options.confOut() + ", for Tez add "
        + tezConfFile(options.confOut()));
  }

  /** Where the configuration for Tez goes: beside {@code confOut}, its name with {@code -tez}. */
  static Path tezConfFile(Path confOut) {
    String name = confOut.getFileName().toString();
    int dot = name.lastIndexOf('.');
    String tezName = dot > 0 ? name.substring(0, dot) + "-tez" + name.substring(dot)
        : name + "-tez";
    return confOut.resolveSibling(tezName);
  }

  private void configureYarn(Configuration conf) {
    if (options.nodeManagers() > 1) {
      conf.setBoolean(YarnConfiguration.RM_SCHEDULER_INCLUDE_PORT_IN_NODE_NAME, true);
    }
    conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    conf.setInt(YarnConfiguration.NM_PMEM_MB, options.nodeManagerMemoryMb());
    conf.setInt(YarnConfiguration.NM_VCORES, options.nodeManagerVcores());
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB,
        options.nodeManagerMemoryMb());
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_VCORES,
        options.nodeManagerVcores());
    conf.setFloat(CapacitySchedulerConfiguration.MAXIMUM_APPLICATION_MASTERS_RESOURCE_PERCENT,
        options.maxAmPercent());
    // A fuller disk than YARN's 90% default would mark the NodeManager's only disk bad.
    conf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 99.0f);

    conf.setInt(MRJobConfig.MR_AM_VMEM_MB, options.appMasterMemoryMb());
    conf.set(MRJobConfig.MR_AM_COMMAND_OPTS, "-Xmx" + heapMb(options.appMasterMemoryMb()) + "m");
    conf.setInt(MRJobConfig.MAP_MEMORY_MB, options.mapMemoryMb());
    conf.setInt(MRJobConfig.REDUCE_MEMORY_MB, options.reduceMemoryMb());
    String opens = String.join(" ", addOpensOptions());
    conf.set(MRJobConfig.MR_AM_ADMIN_COMMAND_OPTS, opens);
    conf.set(MRJobConfig.MAPRED_MAP_ADMIN_JAVA_OPTS,
        conf.get(MRJobConfig.MAPRED_MAP_ADMIN_JAVA_OPTS, "") + " " + opens);
    conf.set(MRJobConfig.MAPRED_REDUCE_ADMIN_JAVA_OPTS,
        conf.get(MRJobConfig.MAPRED_REDUCE_ADMIN_JAVA_OPTS, "") + " " + opens);
    if (System.getenv("JAVA_HOME") == null) {
      String adminEnv = conf.get(YarnConfiguration.NM_ADMIN_USER_ENV,
          YarnConfiguration.DEFAULT_NM_ADMIN_USER_ENV);
      conf.set(YarnConfiguration.NM_ADMIN_USER_ENV,
          adminEnv + ",JAVA_HOME=" + System.getProperty("java.home"));
    }
  }

  /** Heap for a JVM in a container of {@code containerMb}: Hadoop's 0.8 ratio, as for tasks. */
  private static int heapMb(int containerMb) {
    return (int) (containerMb * 0.8);
  }

  private static List<String> addOpensOptions() {
    List<String> opens = new ArrayList<>();
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens")) {
        opens.add(arg);
      }
    }
    return opens;
  }

  /** Ends the processes of {@code started} still alive: SIGTERM, then SIGKILL after a few seconds. */
  static int endLeftovers(List<ProcessHandle> started) {
    List<ProcessHandle> alive = started.stream().filter(ProcessHandle::isAlive).toList();
    if (alive.isEmpty()) {
      return 0;
    }
    System.err.println("minicluster: ending " + alive.size() + " container processes YARN left running");
    alive.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + LEFTOVER_GRACE_NANOS;
    for (ProcessHandle process : alive) {
      try {
        process.onExit().get(Math.max(1, deadline - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS);
      } catch (Exception e) {
        process.destroyForcibly();
      }
    }
    return alive.size();
  }

  /** Stops what started, once; halts the JVM if that hangs. */
  private synchronized void stop() {
    if (stopped) {
      return;
    }
    stopped = true;
    // the NodeManagers' containers are this JVM's descendants until the NodeManagers stop
    List<ProcessHandle> containers = ProcessHandle.current().descendants().toList();
    Thread watchdog = new Thread(() -> {
      try {
        Thread.sleep(SHUTDOWN_LIMIT_SECONDS * 1000L);
        System.err.println("minicluster: shutdown took over " + SHUTDOWN_LIMIT_SECONDS
            + " s, halting");
        containers.forEach(ProcessHandle::destroyForcibly);
        Runtime.getRuntime().halt(3);
      } catch (InterruptedException e) {
        // stopped in time
      }
    }, NAME + "-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
    MiniMRYarnCluster mr = yarn;
    if (mr != null) {
      try {
        MiniYarnStop.stop(mr);
      } catch (RuntimeException e) {
        System.err.println("minicluster: stopping YARN: " + e);
      }
    }
    MiniDFSCluster hdfs = dfs;
    if (hdfs != null) {
      try {
        hdfs.shutdown();
      } catch (RuntimeException e) {
        System.err.println("minicluster: stopping HDFS: " + e);
      }
    }
    endLeftovers(containers);
    System.err.println("minicluster: stopped");
  }
}
