package io.vivace.driver.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.client.SessionClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.terasort.TeraGen;
import org.apache.hadoop.examples.terasort.TeraSort;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.ssl.KeyStoreTestUtil;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session with {@code mapreduce.shuffle.ssl.enabled=true}: its executors start their shuffle
 * servers and fetches over TLS with the {@code ssl-server.xml}/{@code ssl-client.xml} on their
 * class path (made by Hadoop's {@link KeyStoreTestUtil} into this module's test classes, which the
 * mini-cluster's containers have on theirs, as a real cluster's have its HADOOP_CONF_DIR), and a
 * terasort on it gives the embedded engine's output. The bytes over TLS are checked in the
 * runtime's ShuffleTlsTest.
 */
@Tag("minicluster")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@ExtendWith(SharedCluster.class)
class SessionShuffleTlsTest {

  private static final String SESSION = "tls";

  @TempDir
  static java.nio.file.Path keystores;
  private static String sslConfDir;
  private static ClusterFixture cluster;
  private static Configuration conf;

  @BeforeAll
  static void setUp() throws Exception {
    cluster = SharedCluster.cluster();
    sslConfDir = KeyStoreTestUtil.getClasspathDir(SessionShuffleTlsTest.class);
    conf = cluster.sessionConf(SESSION);
    KeyStoreTestUtil.setupSSLConfig(keystores.toString(), sslConfDir, conf, false);
    conf.setBoolean("mapreduce.shuffle.ssl.enabled", true);
    conf.setInt("vivace.session.executors.min", 2);
    conf.setInt("vivace.session.executors.max", 2);
    conf.setInt("vivace.session.executor.slots", 1);
  }

  @AfterAll
  static void tearDown() throws Exception {
    try {
      SessionClient.stop(conf, SESSION);
    } finally {
      KeyStoreTestUtil.cleanupSSLConfig(keystores.toString(), sslConfDir);
    }
  }

  @Test
  void terasortOnASessionWithTlsGivesTheEmbeddedEnginesOutput() throws Exception {
    FileSystem fs = FileSystem.get(conf);
    Path input = new Path("/tls/rows");
    Path reference = new Path("/tls/sorted-embedded");
    Path output = new Path("/tls/sorted-session");
    assertEquals(0, ToolRunner.run(cluster.embeddedConf(), new TeraGen(), new String[] {"-D",
        "mapreduce.job.maps=4", "20000", input.toString()}));
    assertEquals(0, ToolRunner.run(cluster.embeddedConf(), new TeraSort(), new String[] {"-D",
        "mapreduce.job.reduces=2", input.toString(), reference.toString()}));

    assertEquals(0, ToolRunner.run(conf, new TeraSort(), new String[] {"-D", "mapreduce.job.reduces=2",
        input.toString(), output.toString()}));

    Outputs.assertCommitted(fs, output, "terasort on a session with TLS");
    Outputs.assertSameFiles(fs, reference, output, "terasort on a session with TLS, against the embedded engine's");
    String application = SessionClient.list(conf).stream().filter(s -> SessionClient.sessionName(s).equals(SESSION))
        .findFirst().orElseThrow().getApplicationId().toString();
    List<String> executors = executorSyslogs(application);
    assertEquals(2, executors.size(), "the executors' syslogs");
    for (String log : executors) {
      assertTrue(log.contains("shuffle port ") && log.contains(", TLS (mapreduce.shuffle.ssl.enabled)"), log);
      assertFalse(log.contains("Refused a shuffle request") || log.contains("Fetching map "), log);
    }
  }

  /** The syslogs of the session's executors (every container but the master's, _000001). */
  private static List<String> executorSyslogs(String application) throws IOException {
    List<String> logs = new ArrayList<>();
    for (java.nio.file.Path syslog : SessionLogs.syslogs(SharedCluster.cluster(), application)) {
      if (!SessionLogs.isMasters(syslog)) {
        logs.add(Files.readString(syslog, StandardCharsets.UTF_8));
      }
    }
    return logs;
  }
}
