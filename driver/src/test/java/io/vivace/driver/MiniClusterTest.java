package io.vivace.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The mini-cluster as the lab uses it: a process of its own that reports READY with its client
 * configuration, runs the driver's workloads on YARN and HDFS, and stops by itself when its stdin
 * closes. One cluster for the whole suite: on 2 cores it takes ~30 s to start, ~20 s to stop, and
 * every container is a JVM of its own, so the workloads are as small as they get (a map-only
 * sleep, a 1,000-row terasort with one map and one reduce).
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class MiniClusterTest {

  private static final int READY_SECONDS = 240;
  private static final int STOP_SECONDS = MiniCluster.SHUTDOWN_LIMIT_SECONDS + 30;
  /**
   * Short-lived JVMs on 2 cores start markedly faster with the client compiler only; the tests
   * give it to every container and to the cluster itself (not a default of MiniCluster: the lab
   * measures YARN as configured).
   */
  private static final String QUICK_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";
  /** In the module's test working directory (target/test-work), for a look after a failure. */
  private static final Path LOG = Paths.get("minicluster-test.log").toAbsolutePath();

  @Test
  void driverRunsOnYarnAndHdfsAndTheClusterStopsWhenStdinCloses() throws Exception {
    Path dir = DriverRun.tempDir("minicluster");
    Path clusterConf = dir.resolve("cluster-conf.xml");
    Process cluster = start(dir, clusterConf);
    try {
      assertEquals("READY " + clusterConf, readyLine(cluster));

      JsonNode sleep = runOnCluster(dir, clusterConf, "sleep", "--param", "maps=1",
          "--param", "reduces=0");
      assertTrue(sleep.at("/validation/detail").asText().contains("1 maps ran"),
          sleep.get("validation").toString());

      JsonNode terasort = runOnCluster(dir, clusterConf, "terasort", "--param", "rows=1000",
          "--param", "maps=1", "--param", "reduces=1");
      assertTrue(terasort.at("/data/path").asText().startsWith("hdfs://"),
          terasort.get("data").toString());
      assertEquals(100_000, terasort.at("/validation/output_bytes").asLong());
      assertTrue(RecordChecks.jobs(terasort, "prepare").get(0).get("job_id").asText()
          .startsWith("job_"), "prepared on Vivace, over HDFS");

      cluster.getOutputStream().close();
      assertTrue(cluster.waitFor(STOP_SECONDS, TimeUnit.SECONDS),
          "the mini-cluster did not stop within " + STOP_SECONDS + " s of stdin closing; see "
              + LOG);
      assertEquals(0, cluster.exitValue(), "mini-cluster exit status; see " + LOG);
    } finally {
      if (cluster.isAlive()) {
        cluster.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
      DriverRun.deleteQuietly(dir);
    }
  }

  /** One driver run against the cluster's configuration: on YARN, data and output on HDFS. */
  private static JsonNode runOnCluster(Path dir, Path clusterConf, String workload,
      String... params) throws Exception {
    Path record = dir.resolve(workload + ".json");
    List<String> args = new ArrayList<>(List.of("-conf", clusterConf.toString(),
        "-D", "yarn.app.mapreduce.am.command-opts=-Xmx768m " + QUICK_JVM,
        "-D", "mapreduce.map.java.opts=" + QUICK_JVM,
        "-D", "mapreduce.reduce.java.opts=" + QUICK_JVM,
        "--workload", workload, "--record", record.toString(),
        "--data-root", "/vivace/data", "--work-root", "/vivace/work/" + workload));
    args.addAll(List.of(params));
    DriverRun.Result result = DriverRun.run(new Configuration(), new BenchDriver(), record,
        args.toArray(new String[0]));
    JsonNode json = RecordChecks.assertSucceeded(result, workload, "yarn");
    assertTrue(json.get("default_fs").asText().startsWith("hdfs://localhost:"),
        json.get("default_fs").toString());
    assertTrue(json.get("work_root").asText().startsWith(json.get("default_fs").asText()),
        json.get("work_root").toString());
    for (JsonNode job : RecordChecks.jobs(json, "run")) {
      assertFalse(job.get("tasks").isEmpty(), "YARN reports tasks: " + job);
      for (JsonNode task : job.get("tasks")) {
        assertEquals("SUCCEEDED", task.get("status").asText(), task.toString());
      }
      assertFalse(job.get("start_ms").isNull(), "YARN reports the job's start: " + job);
    }
    return json;
  }

  /** {@code MiniCluster} in a JVM of its own, with this JVM's class path and --add-opens. */
  private static Process start(Path dir, Path clusterConf) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens")) {
        command.add(arg);
      }
    }
    command.addAll(List.of(QUICK_JVM.split(" ")));
    command.addAll(List.of("-Djava.net.preferIPv4Stack=true",
        "-cp", System.getProperty("java.class.path"), MiniCluster.class.getName(),
        "--dir", dir.resolve("cluster").toString(), "--conf-out", clusterConf.toString()));
    return new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.to(LOG.toFile()))
        .start();
  }

  /** The first line on the cluster's stdout; fails if it exits or takes too long first. */
  private static String readyLine(Process cluster) throws Exception {
    BufferedReader stdout = new BufferedReader(
        new InputStreamReader(cluster.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
      try {
        return stdout.readLine();
      } catch (IOException e) {
        return null;
      }
    });
    try {
      String ready = line.get(READY_SECONDS, TimeUnit.SECONDS);
      if (ready == null) {
        fail("the mini-cluster exited (" + cluster.waitFor() + ") without READY:\n" + logTail());
      }
      return ready;
    } catch (TimeoutException e) {
      fail("no READY from the mini-cluster within " + READY_SECONDS + " s:\n" + logTail());
      return null;
    }
  }

  private static String logTail() throws IOException {
    List<String> lines = Files.readAllLines(LOG, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }
}
