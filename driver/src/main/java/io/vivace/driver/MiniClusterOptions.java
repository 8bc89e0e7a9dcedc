package io.vivace.driver;

import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Command line of {@link MiniCluster}. The container sizes default to what fits a 2-core, 24 GiB
 * machine: a NodeManager of 3 GB and 3 vcores holds the MapReduce ApplicationMaster and two tasks
 * of 1 GB and 1 vcore each at once, like Vivace's and the LocalJobRunner's 2 slots.
 * {@code --nodemanagers} and {@code --datanodes} (1 each by default) give the cluster more nodes,
 * all on this host; each NodeManager has the {@code --nm-memory-mb} and {@code --nm-vcores} given.
 *
 * <p>{@code --max-am-percent} is the CapacityScheduler's share of the cluster's memory that
 * ApplicationMasters may hold ({@code yarn.scheduler.capacity.maximum-am-resource-percent}, YARN's
 * default 0.1, which admits one AM at a time here). The default, 0.5, leaves at least half of the
 * NodeManager to tasks, so concurrent AMs can never starve their own tasks; with the default
 * containers it still admits one AM (two would hold 2048 of 1536 MB), so one job at a time runs as
 * before, while smaller AM containers ({@code --am-memory-mb 512} and a larger NodeManager) let
 * several jobs run at once. The scheduler counts memory only (DefaultResourceCalculator): vcores
 * do not limit how many containers run.
 */
record MiniClusterOptions(Path dir, Path confOut, int nodeManagers, int dataNodes,
    int nodeManagerMemoryMb, int nodeManagerVcores, int appMasterMemoryMb, int mapMemoryMb,
    int reduceMemoryMb, float maxAmPercent) {

  static final String USAGE = String.join("\n",
      "Usage: MiniCluster --dir DIR --conf-out FILE [--nodemanagers 1] [--datanodes 1]",
      "                   [--nm-memory-mb 3072] [--nm-vcores 3] [--am-memory-mb 1024]",
      "                   [--map-memory-mb 1024] [--reduce-memory-mb 1024] [--max-am-percent 0.5]",
      "Starts HDFS (DataNodes) and YARN with MapReduce (NodeManagers, JobHistoryServer) on",
      "loopback, keeping their files under DIR, and stages Apache Tez's jars on HDFS; writes the",
      "client configuration to FILE, the one for Tez (mapreduce.framework.name=yarn-tez) beside it",
      "(FILE's name with -tez), and prints 'READY FILE' on stdout. Stops when stdin reaches end of",
      "file or on SIGTERM.");

  static MiniClusterOptions parse(String[] args) throws UsageException {
    Path dir = null;
    Path confOut = null;
    int nodeManagers = 1;
    int dataNodes = 1;
    int nmMemory = 3072;
    int nmVcores = 3;
    int amMemory = 1024;
    int mapMemory = 1024;
    int reduceMemory = 1024;
    float maxAmPercent = 0.5f;
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      switch (option) {
        case "--dir" -> dir = Paths.get(value(args, ++i, option)).toAbsolutePath();
        case "--conf-out" -> confOut = Paths.get(value(args, ++i, option)).toAbsolutePath();
        case "--nodemanagers" -> nodeManagers = positive(args, ++i, option);
        case "--datanodes" -> dataNodes = positive(args, ++i, option);
        case "--nm-memory-mb" -> nmMemory = positive(args, ++i, option);
        case "--nm-vcores" -> nmVcores = positive(args, ++i, option);
        case "--am-memory-mb" -> amMemory = positive(args, ++i, option);
        case "--map-memory-mb" -> mapMemory = positive(args, ++i, option);
        case "--reduce-memory-mb" -> reduceMemory = positive(args, ++i, option);
        case "--max-am-percent" -> maxAmPercent = fraction(args, ++i, option);
        default -> throw new UsageException("unknown option: " + option);
      }
    }
    if (dir == null || confOut == null) {
      throw new UsageException("--dir and --conf-out are required");
    }
    int largest = Math.max(amMemory, Math.max(mapMemory, reduceMemory));
    if (largest > nmMemory) {
      throw new UsageException("a container of " + largest + " MB does not fit the NodeManager's "
          + nmMemory + " MB");
    }
    return new MiniClusterOptions(dir, confOut, nodeManagers, dataNodes, nmMemory, nmVcores,
        amMemory, mapMemory, reduceMemory, maxAmPercent);
  }

  private static String value(String[] args, int i, String option) throws UsageException {
    if (i >= args.length) {
      throw new UsageException(option + " needs a value");
    }
    return args[i];
  }

  private static int positive(String[] args, int i, String option) throws UsageException {
    String text = value(args, i, option);
    try {
      int n = Integer.parseInt(text);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException(option + " needs a positive integer, not '" + text + "'");
  }

  private static float fraction(String[] args, int i, String option) throws UsageException {
    String text = value(args, i, option);
    try {
      float f = Float.parseFloat(text);
      if (f > 0 && f <= 1) {
        return f;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException(option + " needs a number above 0 and at most 1, not '" + text + "'");
  }
}
