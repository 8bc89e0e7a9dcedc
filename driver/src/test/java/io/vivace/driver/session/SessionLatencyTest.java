package io.vivace.driver.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.client.SessionClient;
import io.vivace.workloads.bench.LatencyBench;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.PhaseTimedSubmission;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Empty jobs on a warm session from a warm client, phase by phase (connection, staging, the submit
 * call, the attempts, the commit, the client seeing the end): printed, never asserted (speed is
 * measured, not asserted), on lines that start {@code session-latency:}.
 */
@Tag("minicluster")
@Tag("slow")
@Timeout(900)
@ExtendWith(SharedCluster.class)
class SessionLatencyTest {

  private static final String SESSION = "latency";
  private static final int RUNS = Integer.getInteger("vivace.latency.runs", 10);
  private static ClusterFixture cluster;

  @BeforeAll
  static void useTheCluster() {
    cluster = SharedCluster.cluster();
  }

  @AfterAll
  static void stopTheSession() throws IOException {
    SessionClient.stop(cluster.sessionConf(SESSION), SESSION);
  }

  private static String load() throws IOException {
    return Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
  }

  @Test
  void emptyJobsPhaseByPhase() throws Exception {
    Configuration conf = cluster.sessionConf(SESSION);
    conf.setInt("mapreduce.client.completion.pollinterval", 5);
    List<String> report = new ArrayList<>();
    for (int i = 0; i < 3; i++) { // starts the session and its executors, warms both ends
      try (Job job = LatencyBench.emptyJob(conf)) {
        assertTrue(job.waitForCompletion(false), "warm-up job " + i);
      }
    }
    report.add("load before: " + load());
    List<Double> totals = new ArrayList<>();
    Map<String, Long> nameNode = RpcCalls.byMethod(RpcCalls.nameNode(cluster));
    Map<String, Long> resourceManager = RpcCalls.byMethod(RpcCalls.resourceManager(cluster));
    for (int i = 0; i < RUNS; i++) {
      long start = System.nanoTime();
      try (Job job = LatencyBench.emptyJob(conf)) {
        job.submit();
        double submitted = (System.nanoTime() - start) / 1e6;
        assertTrue(job.waitForCompletion(false), "job " + i);
        double total = (System.nanoTime() - start) / 1e6;
        totals.add(total);
        report.add(String.format(java.util.Locale.ROOT, "Job.submit+waitForCompletion %d: submit %.1f total %.1f ms",
            i, submitted, total));
      }
    }
    report.add("NameNode calls in " + RUNS + " jobs (all the session's and its client's): "
        + RpcCalls.since(nameNode, RpcCalls.byMethod(RpcCalls.nameNode(cluster))));
    report.add("ResourceManager client calls in " + RUNS + " jobs: "
        + RpcCalls.since(resourceManager, RpcCalls.byMethod(RpcCalls.resourceManager(cluster))));
    for (int i = 0; i < RUNS; i++) {
      PhaseTimedSubmission.Phases phases = PhaseTimedSubmission.run(LatencyBench.emptyJob(conf));
      assertEquals(JobStatus.State.SUCCEEDED, phases.status().getState(), phases.status().getFailureInfo());
      report.add("phases " + i + ": " + phases.line());
    }
    report.add("load after: " + load());
    totals.sort(null);
    report.add(String.format(java.util.Locale.ROOT, "median submit-to-done %.1f ms over %d jobs",
        totals.get(totals.size() / 2), totals.size()));
    report.forEach(line -> System.out.println("session-latency: " + line));
  }
}
