package io.vivace.cluster.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.rpc.Assignments;
import io.vivace.cluster.rpc.AttemptResult;
import io.vivace.cluster.rpc.AttemptResults;
import io.vivace.cluster.rpc.ExecutorInfo;
import io.vivace.cluster.rpc.ExecutorProtocol;
import io.vivace.cluster.rpc.StatusBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
 * An executor's reports of its attempts' ends through Hadoop's real RPC client and server: made from
 * the reporter's own thread, so that a worker that a stop of its attempt interrupted as it ended still
 * has its end heard (Hadoop's client drops a call made by an interrupted thread) and keeps its
 * interrupt; ends handed over while a call is under way go together in the next call; an attempt is
 * held until the call carrying its end returned.
 */
class AttemptEndReporterTest {

  private static final long GUARD_MILLIS = 30_000;

  /** The session's master, played by the test: it records the ends reported to it, call by call. */
  private static final class Master implements ExecutorProtocol {
    final List<String> ended = new CopyOnWriteArrayList<>();
    final List<Integer> callSizes = new CopyOnWriteArrayList<>();
    final CountDownLatch firstCallIn = new CountDownLatch(1);
    final CountDownLatch letFirstCallReturn = new CountDownLatch(1);

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
    public void attemptsDone(int executorId, AttemptResults results) throws java.io.IOException {
      for (AttemptResult result : results.results()) {
        ended.add(executorId + " " + result.attemptId());
      }
      callSizes.add(results.results().size());
      firstCallIn.countDown();
      try {
        letFirstCallReturn.await();
      } catch (InterruptedException e) {
        throw new java.io.InterruptedIOException();
      }
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
  private final List<String> reported = new CopyOnWriteArrayList<>();
  private RPC.Server server;
  private ExecutorProtocol proxy;
  private AttemptEndReporter reporter;

  @BeforeEach
  void start() throws Exception {
    Configuration conf = new Configuration(false);
    RPC.setProtocolEngine(conf, ExecutorProtocol.class, WritableRpcEngine.class);
    server = new RPC.Builder(conf).setProtocol(ExecutorProtocol.class).setInstance(master).setBindAddress("127.0.0.1")
        .setPort(0).setNumHandlers(1).build();
    server.start();
    proxy = RPC.getProxy(ExecutorProtocol.class, ExecutorProtocol.versionID, NetUtils.getConnectAddress(server), conf);
    reporter = new AttemptEndReporter(proxy, 7, reported::add);
  }

  @AfterEach
  void stop() throws InterruptedException {
    master.letFirstCallReturn.countDown();
    if (reporter != null) {
      reporter.close();
    }
    if (proxy != null) {
      RPC.stopProxy(proxy);
    }
    if (server != null) {
      server.stop();
    }
  }

  private static AttemptResult ended(int map) {
    return new AttemptResult(String.format("attempt_1_0001_m_%06d_0", map), true, new Counters(), "", new int[0]);
  }

  @Test
  void anInterruptedWorkersReportReachesTheMasterAndTheWorkerKeepsItsInterrupt() throws Exception {
    master.letFirstCallReturn.countDown();
    boolean[] keptInterrupt = new boolean[1];
    Thread worker = new Thread(() -> {
      Thread.currentThread().interrupt(); // the stop of the attempt, come as it ended
      reporter.report(new AttemptResult("attempt_1_0001_m_000000_0", false, new Counters(), "stopped", new int[0]));
      keptInterrupt[0] = Thread.currentThread().isInterrupted();
    });
    worker.start();
    worker.join();
    awaitSize(reported, 1);
    assertEquals(List.of("7 attempt_1_0001_m_000000_0"), master.ended, "the end the master heard of");
    assertTrue(keptInterrupt[0], "the worker's interrupt, kept");
  }

  @Test
  void endsHandedOverWhileACallIsUnderWayGoTogetherInTheNextAndAreHeldUntilItReturns() throws Exception {
    reporter.report(ended(0));
    assertTrue(master.firstCallIn.await(GUARD_MILLIS, TimeUnit.MILLISECONDS), "the first end's call reached the master");
    List<String> expected = new ArrayList<>(List.of("7 " + ended(0).attemptId()));
    for (int map = 1; map <= 10; map++) {
      reporter.report(ended(map));
      expected.add("7 " + ended(map).attemptId());
    }
    Thread.sleep(200); // a reporter that did not wait for the call under way would send now
    assertEquals(List.of(), reported, "ends reported while the master has not answered the call carrying them");
    master.letFirstCallReturn.countDown();
    awaitSize(reported, 11);
    assertEquals(expected, master.ended, "every end, in the order handed over");
    assertEquals(List.of(1, 10), master.callSizes, "the ends in each call");
  }

  /**
   * The close's interrupt may cut the call under way, which is then made again: the master may hear
   * of an end twice (it takes the first and ignores the second, {@code Dispatcher.attemptDone}), so
   * what is checked is that it heard of each.
   */
  @Test
  void closingReportsWhatWasHandedOver() throws Exception {
    master.letFirstCallReturn.countDown();
    Set<String> expected = new TreeSet<>();
    for (int map = 0; map < 5; map++) {
      reporter.report(ended(map));
      expected.add("7 " + ended(map).attemptId());
    }
    reporter.close();
    assertEquals(expected, new TreeSet<>(master.ended), "ends the master heard of: " + master.ended);
    assertEquals(5, reported.size(), "ends reported: " + reported);
  }

  private static void awaitSize(List<String> list, int size) throws InterruptedException {
    long deadline = System.nanoTime() + GUARD_MILLIS * 1_000_000L;
    while (list.size() < size && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertEquals(size, list.size(), "items: " + list);
  }
}
