package io.vivace.cluster.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.rpc.Assignments;
import io.vivace.cluster.rpc.AttemptResult;
import io.vivace.cluster.rpc.ExecutorInfo;
import io.vivace.cluster.rpc.ExecutorProtocol;
import io.vivace.cluster.rpc.StatusBatch;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.WritableRpcEngine;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.net.NetUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An executor's report of an attempt's end through Hadoop's real RPC client and server, made by a
 * worker thread that a stop of the attempt interrupted as it ended: the master hears of the end
 * (Hadoop's client alone would drop the call), and the thread keeps its interrupt.
 */
class AttemptEndReporterTest {

  /** The session's master, played by the test: it records the ends reported to it. */
  private static final class Master implements ExecutorProtocol {
    final List<String> ended = new CopyOnWriteArrayList<>();

    @Override
    public int register(ExecutorInfo info) {
      return 1;
    }

    @Override
    public Assignments nextWork(int executorId, long waitMillis, StatusBatch running) {
      return new Assignments();
    }

    @Override
    public io.vivace.submit.JobDescription describedJob(int executorId, String jobId) throws java.io.IOException {
      throw new java.io.IOException("no job is described here");
    }

    @Override
    public boolean mayCommit(int executorId, String attemptId) {
      return false;
    }

    @Override
    public void attemptDone(int executorId, AttemptResult result) {
      ended.add(executorId + " " + result.attemptId());
    }

    @Override
    public long getProtocolVersion(String protocol, long clientVersion) {
      return versionID;
    }

    @Override
    public ProtocolSignature getProtocolSignature(String protocol, long clientVersion, int clientMethodsHash) {
      return ProtocolSignature.getProtocolSignature(clientMethodsHash, versionID, ExecutorProtocol.class);
    }
  }

  private final Master master = new Master();
  private RPC.Server server;
  private ExecutorProtocol proxy;

  @BeforeEach
  void start() throws Exception {
    Configuration conf = new Configuration(false);
    RPC.setProtocolEngine(conf, ExecutorProtocol.class, WritableRpcEngine.class);
    server = new RPC.Builder(conf).setProtocol(ExecutorProtocol.class).setInstance(master).setBindAddress("127.0.0.1")
        .setPort(0).setNumHandlers(1).build();
    server.start();
    proxy = RPC.getProxy(ExecutorProtocol.class, ExecutorProtocol.versionID, NetUtils.getConnectAddress(server), conf);
  }

  @AfterEach
  void stop() {
    if (proxy != null) {
      RPC.stopProxy(proxy);
    }
    if (server != null) {
      server.stop();
    }
  }

  @Test
  void anInterruptedWorkersReportReachesTheMasterAndTheWorkerKeepsItsInterrupt() throws Exception {
    AttemptEndReporter reporter = new AttemptEndReporter(proxy, 7);
    boolean[] keptInterrupt = new boolean[1];
    Thread worker = new Thread(() -> {
      Thread.currentThread().interrupt(); // the stop of the attempt, come as it ended
      reporter.report(new AttemptResult("attempt_1_0001_m_000000_0", false, new Counters(), "stopped", new int[0]));
      keptInterrupt[0] = Thread.currentThread().isInterrupted();
    });
    worker.start();
    worker.join();
    assertEquals(List.of("7 attempt_1_0001_m_000000_0"), master.ended, "the end the master heard of");
    assertTrue(keptInterrupt[0], "the worker's interrupt, kept");
  }
}
