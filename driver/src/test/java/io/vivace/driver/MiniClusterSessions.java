package io.vivace.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.SleepJob;
import org.apache.hadoop.util.ToolRunner;

/**
 * A Vivace session on a {@link MiniCluster} process that a test started in a folder of its own, and
 * the container processes the cluster runs, found by that folder in their command lines.
 */
final class MiniClusterSessions {

  private MiniClusterSessions() {
  }

  /**
   * A one-map sleep on a session of the cluster whose client configuration is {@code clusterConf}:
   * its master and one executor start; {@code rmTimeoutMs} is the session's
   * {@code vivace.session.rm.timeout.ms}.
   */
  static void runASessionJob(Path clusterConf, long rmTimeoutMs) throws Exception {
    Configuration conf = new Configuration();
    conf.addResource(new org.apache.hadoop.fs.Path(clusterConf.toUri()));
    conf.set("mapreduce.framework.name", "vivace");
    conf.set("vivace.master", "yarn");
    conf.setInt("vivace.session.am.memory.mb", 512);
    conf.setInt("vivace.session.executor.memory.mb", 512);
    conf.setLong("vivace.session.rm.timeout.ms", rmTimeoutMs);
    TestJit.giveContainers(conf);
    assertEquals(0, ToolRunner.run(conf, new SleepJob(), new String[] {"-m", "1", "-r", "0", "-mt", "1"}));
  }

  /** The JVMs whose command lines name {@code dir}, but the cluster's own. */
  static List<ProcessHandle> containerProcesses(Path dir) {
    String mark = dir.toString();
    return ProcessHandle.allProcesses().filter(p -> {
      String line = p.info().commandLine().orElse("");
      return p.info().command().orElse("").endsWith("/java") && line.contains(mark)
          && !line.contains(MiniCluster.class.getName());
    }).toList();
  }
}
