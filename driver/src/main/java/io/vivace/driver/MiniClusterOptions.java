package io.vivace.driver;

import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Command line of {@link MiniCluster}. The container sizes default to what fits a 2-core, 24 GiB
 * machine: a NodeManager of 3 GB and 3 vcores holds the MapReduce ApplicationMaster and two tasks
 * of 1 GB and 1 vcore each at once, like Vivace's and the LocalJobRunner's 2 slots.
 */
record MiniClusterOptions(Path dir, Path confOut, int nodeManagerMemoryMb, int nodeManagerVcores,
    int appMasterMemoryMb, int mapMemoryMb, int reduceMemoryMb) {

  static final String USAGE = String.join("\n",
      "Usage: MiniCluster --dir DIR --conf-out FILE [--nm-memory-mb 3072] [--nm-vcores 3]",
      "                   [--am-memory-mb 1024] [--map-memory-mb 1024] [--reduce-memory-mb 1024]",
      "Starts HDFS (1 DataNode) and YARN with MapReduce (1 NodeManager, JobHistoryServer) on",
      "loopback, keeping their files under DIR; writes the client configuration to FILE and prints",
      "'READY FILE' on stdout. Stops when stdin reaches end of file or on SIGTERM.");

  static MiniClusterOptions parse(String[] args) throws UsageException {
    Path dir = null;
    Path confOut = null;
    int nmMemory = 3072;
    int nmVcores = 3;
    int amMemory = 1024;
    int mapMemory = 1024;
    int reduceMemory = 1024;
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      switch (option) {
        case "--dir" -> dir = Paths.get(value(args, ++i, option)).toAbsolutePath();
        case "--conf-out" -> confOut = Paths.get(value(args, ++i, option)).toAbsolutePath();
        case "--nm-memory-mb" -> nmMemory = positive(args, ++i, option);
        case "--nm-vcores" -> nmVcores = positive(args, ++i, option);
        case "--am-memory-mb" -> amMemory = positive(args, ++i, option);
        case "--map-memory-mb" -> mapMemory = positive(args, ++i, option);
        case "--reduce-memory-mb" -> reduceMemory = positive(args, ++i, option);
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
    return new MiniClusterOptions(dir, confOut, nmMemory, nmVcores, amMemory, mapMemory,
        reduceMemory);
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
}
