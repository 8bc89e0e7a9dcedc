package io.vivace.cluster;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.util.StringUtils;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;

/**
 * The local folders of one of the session's containers. YARN gives every container of an
 * application the same local folders ({@code LOCAL_DIRS}: {@code .../appcache/<application>} on
 * each disk), so two executors of a session on one node would share whatever they write there by
 * job or file name (a job's {@code job.xml}, its cache, its partition files) and read each other's
 * half-written files. Each container therefore works in a folder named after itself in each of them
 * ({@code <dir>/<container id>}, where YARN's own working folder of the container is).
 */
public final class ContainerDirs {

  private ContainerDirs() {
  }

  /** The container's own folder in each of {@code localDirs} (YARN's comma-separated list). */
  public static String of(String localDirs, String containerId) {
    if (localDirs == null || localDirs.isBlank()) {
      throw new IllegalStateException("the container's environment has no " + Environment.LOCAL_DIRS.name());
    }
    List<String> own = new ArrayList<>();
    for (String dir : StringUtils.getTrimmedStrings(localDirs)) {
      own.add(dir + "/" + containerId);
    }
    return String.join(",", own);
  }

  /**
   * Sets {@code mapreduce.cluster.local.dir} of this container's JVM to its own folders, from the
   * environment YARN launched it with.
   */
  public static void useOwnFolders(Configuration conf) {
    conf.set(MRConfig.LOCAL_DIR, of(System.getenv(Environment.LOCAL_DIRS.name()),
        System.getenv(Environment.CONTAINER_ID.name())));
  }
}
