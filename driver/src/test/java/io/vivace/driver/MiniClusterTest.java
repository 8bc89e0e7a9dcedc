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
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The mini-cluster as the lab uses it: a process of its own that reports READY with its client
 * configuration, runs the driver's workloads on YARN and HDFS, and on Tez from the jars it staged
 * on HDFS, runs a Vivace session, and stops by itself when its stdin closes, leaving no container
 * process behind (the session's either). One cluster for the whole suite: on 2 cores
 * it takes ~30 s to start, ~20 s to stop, and every container is a JVM of its own, so the
 * workloads are as small as they get (two map-only sleeps at once, a 1,000-row terasort with one
 * map and one reduce, a sleep of two maps on Tez). The cluster has the lab's SWIM shape (512 MB
 * containers, 4 GB NodeManagers, half of the memory for ApplicationMasters), which runs several
 * jobs at once, with two NodeManagers and two DataNodes.
 */
@Tag("minicluster") // left out of `vivace test --fast`
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
  private static final String AM_OPTS = "-Xmx384m " + QUICK_JVM;
  private static final long SESSION_RM_TIMEOUT_MS = 10_000;
  /** Long enough that the second job's map starts before the first one's ends if both AMs run. */
  private static final String SLEEP_MAP_MS = "15000";

  @Test
  void workloadsAndASessionRunAndClosingStdinStopsTheClusterLeavingNoContainer() throws Exception {
    Path dir = DriverRun.tempDir("minicluster");
    Path clusterConf = dir.resolve("cluster-conf.xml");
    Process cluster = start(dir, clusterConf);
    try {
      assertEquals("READY " + clusterConf, readyLine(cluster));
      hasItsNodes(clusterConf);

      twoJobsRunAtOnce(dir, clusterConf);

      JsonNode terasort = runOnCluster(dir, clusterConf, "yarn", "terasort", "--param", "rows=1000",
          "--param", "maps=1", "--param", "reduces=1");
      assertTrue(terasort.at("/data/path").asText().startsWith("hdfs://"),
          terasort.get("data").toString());
      assertEquals(100_000, terasort.at("/validation/output_bytes").asLong());
      assertTrue(RecordChecks.jobs(terasort, "prepare").get(0).get("job_id").asText()
          .startsWith("job_"), "prepared on Vivace, over HDFS");

      sleepsOnTez(dir, clusterConf);

      MiniClusterSessions.runASessionJob(clusterConf, SESSION_RM_TIMEOUT_MS);
      List<ProcessHandle> session = MiniClusterSessions.containerProcesses(dir);
      assertTrue(session.size() >= 2, "the session's master and executor run: " + session);

      cluster.getOutputStream().close();
      assertTrue(cluster.waitFor(STOP_SECONDS, TimeUnit.SECONDS),
          "the mini-cluster did not stop within " + STOP_SECONDS + " s of stdin closing; see "
              + LOG);
      assertEquals(0, cluster.exitValue(), "mini-cluster exit status; see " + LOG);
      assertEquals(List.of(), MiniClusterSessions.containerProcesses(dir),
          "container processes once the cluster stopped");
    } finally {
      if (cluster.isAlive()) {
        cluster.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
      MiniClusterSessions.containerProcesses(dir).forEach(ProcessHandle::destroyForcibly);
      DriverRun.deleteQuietly(dir);
    }
  }

  /**
   * Two NodeManagers running, two DataNodes live, and YARN naming nodes by host and port, so that
   * both NodeManagers of this one host are nodes to the scheduler.
   */
  private static void hasItsNodes(Path clusterConf) throws Exception {
    Configuration conf = new Configuration();
    conf.addResource(new org.apache.hadoop.fs.Path(clusterConf.toUri()));
    assertTrue(conf.getBoolean(YarnConfiguration.RM_SCHEDULER_INCLUDE_PORT_IN_NODE_NAME, false));
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(conf);
      yarn.start();
      List<NodeReport> nodes = yarn.getNodeReports(NodeState.RUNNING);
      assertEquals(2, nodes.size(), nodes.toString());
      assertEquals(2, nodes.stream().map(n -> n.getNodeId().toString()).distinct().count());
    }
    try (FileSystem fs = FileSystem.newInstance(conf)) {
      assertEquals(2, ((DistributedFileSystem) fs).getDataNodeStats().length);
    }
  }

  /**
   * A sleep of two maps and a reduce on Tez (yarn-tez), with the configuration the cluster wrote
   * beside its own: Tez's ApplicationMaster and tasks load Tez from the jars staged on HDFS, and
   * the record has the counters and tasks of Tez's history.
   */
  private static void sleepsOnTez(Path dir, Path clusterConf) throws Exception {
    Path tezConf = MiniCluster.tezConfFile(clusterConf);
    Configuration tez = new Configuration(false);
    tez.addResource(new org.apache.hadoop.fs.Path(tezConf.toUri()));
    assertTrue(tez.get("tez.lib.uris").matches("hdfs://localhost:\\d+/apps/tez-0\\.10\\.5"),
        tez.get("tez.lib.uris"));
    JsonNode sleep = runOnCluster(dir, clusterConf, "yarn-tez", "sleep", "--param", "maps=2",
        "--param", "reduces=1", "-conf", tezConf.toString());
    JsonNode job = RecordChecks.jobs(sleep, "run").get(0);
    assertEquals(3, job.at("/counters/org.apache.tez.common.counters.DAGCounter/NUM_SUCCEEDED_TASKS")
        .asInt(), job.get("counters").toString());
    assertEquals(List.of("MAP", "MAP", "REDUCE"), job.get("tasks").findValuesAsText("type"));
    assertEquals("sleep: job succeeded, 2 maps ran (task reports)",
        sleep.at("/validation/detail").asText());
  }

  /**
   * One driver run against the cluster's configuration: on YARN (or Tez, with its configuration
   * among {@code params}), data and output on HDFS.
   */
  private static JsonNode runOnCluster(Path dir, Path clusterConf, String framework,
      String workload, String... params) throws Exception {
    Path record = dir.resolve(workload + "-" + framework + ".json");
    List<String> args = new ArrayList<>(List.of("-conf", clusterConf.toString(),
        "-D", "yarn.app.mapreduce.am.command-opts=" + AM_OPTS,
        "-D", "mapreduce.map.java.opts=" + QUICK_JVM,
        "-D", "mapreduce.reduce.java.opts=" + QUICK_JVM,
        "--workload", workload, "--record", record.toString(),
        "--data-root", "/vivace/data", "--work-root", "/vivace/work/" + workload));
    // a second -conf goes after the cluster's (the later file wins) and before the driver's options
    List<String> own = new ArrayList<>(List.of(params));
    int conf = own.indexOf("-conf");
    if (conf >= 0) {
      args.addAll(2, own.subList(conf, conf + 2));
      own.subList(conf, conf + 2).clear();
    }
    args.addAll(own);
    DriverRun.Result result = DriverRun.run(new Configuration(), new BenchDriver(), record,
        args.toArray(new String[0]));
    JsonNode json = RecordChecks.assertSucceeded(result, workload, framework);
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

  /**
   * Two sleep jobs submitted together from two driver processes (the recorder keeps one run's jobs
   * per JVM): both succeed, and their map tasks' start-finish intervals, as YARN reports them,
   * overlap. With YARN's default AM share (one AM at a time here) the second job's AM, and so its
   * map, would only start once the first job finished.
   */
  private static void twoJobsRunAtOnce(Path dir, Path clusterConf) throws Exception {
    List<Process> drivers = new ArrayList<>();
    List<Path> records = new ArrayList<>();
    for (String name : List.of("sleep-a", "sleep-b")) {
      Path record = dir.resolve(name + ".json");
      records.add(record);
      List<String> command = javaCommand();
      command.addAll(List.of(BenchDriver.class.getName(), "-conf", clusterConf.toString(),
          "-D", "yarn.app.mapreduce.am.command-opts=" + AM_OPTS,
          "-D", "mapreduce.map.java.opts=" + QUICK_JVM,
          "--workload", "sleep", "--record", record.toString(),
          "--data-root", "/vivace/data", "--work-root", "/vivace/work/" + name,
          "--param", "maps=1", "--param", "reduces=0", "--param", "map_ms=" + SLEEP_MAP_MS));
      Path log = driverLog(record);
      drivers.add(new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(log.toFile()).start());
    }
    List<JsonNode> maps = new ArrayList<>();
    for (int i = 0; i < drivers.size(); i++) {
      Process driver = drivers.get(i);
      assertTrue(driver.waitFor(READY_SECONDS, TimeUnit.SECONDS), "driver " + i + " still runs");
      Path log = driverLog(records.get(i));
      JsonNode record = DriverRun.readJson(records.get(i));
      assertTrue(record != null, "no record written; see " + log);
      assertEquals(0, driver.exitValue(), "driver exit status; see " + log);
      assertEquals("SUCCEEDED", record.get("status").asText(), record.toPrettyString());
      List<JsonNode> jobs = RecordChecks.jobs(record, "run");
      assertEquals(1, jobs.size(), record.get("jobs").toString());
      JsonNode tasks = jobs.get(0).get("tasks");
      assertEquals(1, tasks.size(), tasks.toString());
      maps.add(tasks.get(0));
    }
    JsonNode a = maps.get(0);
    JsonNode b = maps.get(1);
    assertTrue(a.get("start_ms").asLong() < b.get("finish_ms").asLong()
        && b.get("start_ms").asLong() < a.get("finish_ms").asLong(),
        "the two jobs' maps ran one after the other: " + a + " / " + b);
  }

  /** Beside {@link #LOG}, kept after the test's folder is deleted. */
  private static Path driverLog(Path record) {
    return Paths.get("minicluster-test-" + record.getFileName() + ".log").toAbsolutePath();
  }

  /** {@code java} with this JVM's --add-opens, the quick JIT and class path; the main class next. */
  private static List<String> javaCommand() {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens")) {
        command.add(arg);
      }
    }
    command.addAll(List.of(QUICK_JVM.split(" ")));
    command.addAll(List.of("-Djava.net.preferIPv4Stack=true",
        "-cp", System.getProperty("java.class.path")));
    return command;
  }

  /** {@code MiniCluster} in a JVM of its own, with this JVM's class path and --add-opens. */
  private static Process start(Path dir, Path clusterConf) throws IOException {
    List<String> command = javaCommand();
    command.addAll(List.of(MiniCluster.class.getName(),
        "--dir", dir.resolve("cluster").toString(), "--conf-out", clusterConf.toString(),
        "--nodemanagers", "2", "--datanodes", "2", "--nm-memory-mb", "4096",
        "--am-memory-mb", "512", "--map-memory-mb", "512", "--reduce-memory-mb", "512"));
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
