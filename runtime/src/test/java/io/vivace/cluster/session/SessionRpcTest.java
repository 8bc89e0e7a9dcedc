package io.vivace.cluster.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.ContainerSpec;
import io.vivace.cluster.client.PushedJobEnds;
import io.vivace.cluster.rpc.AttemptAssignment;
import io.vivace.cluster.rpc.ExecutorProtocol;
import io.vivace.cluster.rpc.SessionClientProtocol;
import io.vivace.cluster.rpc.SessionControlProtocol;
import io.vivace.cluster.rpc.SessionRpc;
import io.vivace.cluster.security.SessionAccess;
import io.vivace.cluster.security.SessionSecret;
import io.vivace.testing.StagedJob;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session's master in this JVM, on its real RPC server ({@link SessionRpc}, token-authenticated),
 * with its real jobs, dispatcher and monitor, YARN played by {@link FakeYarn}: a client speaks
 * Hadoop's job client protocol to it and executors speak theirs, each through an RPC proxy as a
 * remote one would. What a client reads crosses the wire: a job's end, its counters, why it failed
 * (not "NA") and each attempt's own diagnostics; a kill returns with the job killed even when its
 * executor never answers; the owner stopping the session hears which jobs it was running.
 */
class SessionRpcTest {

  private static final String SESSION = "application_1700000000000_0001";
  private static final String HOST = "198.18.0.1";

  @TempDir
  Path dir;
  private SessionHarness session;
  private SessionMonitor monitor;
  private RPC.Server server;
  private ClientProtocol client;
  private final List<Object> proxies = new java.util.ArrayList<>();
  private final ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor();
  private SessionAccess access;
  private CountedJobCalls jobCalls;

  @BeforeEach
  void start() throws Exception {
    session = new SessionHarness(dir, 0);
    ExecutorContainers pool = new ExecutorContainers(new ExecutorContainers.Settings(0, 4, 512, 1, 2, Long.MAX_VALUE),
        new ContainerSpec(Map.of(), "vivace-lib/*", List.of()), ByteBuffer.allocate(0), session.dispatcher,
        new FakeYarn());
    monitor = new SessionMonitor(session.jobs, session.dispatcher, pool, new SessionMonitor.Timeouts(
        Long.MAX_VALUE / 2, Long.MAX_VALUE / 2, 500_000_000L, 10_000_000_000L));
    String owner = UserGroupInformation.getCurrentUser().getShortUserName();
    access = new SessionAccess(SESSION, owner, SessionSecret.generate(), "the test's secret");
    jobCalls = new CountedJobCalls(session.jobs);
    server = SessionRpc.server(new Configuration(false), "127.0.0.1", 8, access, jobCalls.protocol(), session.dispatcher,
        monitor);
    server.start();
    client = proxy(ClientProtocol.class);
    ticks.scheduleWithFixedDelay(() -> monitor.tick(System.nanoTime()), 100, 100, TimeUnit.MILLISECONDS);
  }

  @AfterEach
  void stop() throws InterruptedException {
    ticks.shutdownNow();
    proxies.forEach(SessionRpc::close);
    if (server != null) {
      server.stop();
    }
    session.close();
  }

  private <T> T proxy(Class<T> protocol) throws Exception {
    InetSocketAddress address = NetUtils.getConnectAddress(server);
    T proxy = SessionRpc.proxy(protocol, address, new Configuration(false), access,
        UserGroupInformation.getCurrentUser());
    proxies.add(proxy);
    return proxy;
  }

  /** A job staged under the id the session gives it, submitted through the client protocol. */
  private JobID submit(int maps, int reduces) throws Exception {
    JobID id = client.getNewJobID();
    StagedJob staged = StagedJob.stage(dir, id.getJtIdentifier(), id.getId(),
        Collections.nCopies(maps, new String[0]), reduces);
    JobStatus submitted = client.submitJob(id, staged.submitDir().toString(), new Credentials());
    assertEquals(id, submitted.getJobID());
    return id;
  }

  private JobStatus awaitEnd(JobID id) throws Exception {
    long deadline = System.nanoTime() + FakeExecutor.GUARD_MILLIS * 1_000_000L;
    JobStatus status = client.getJobStatus(id);
    while (!status.isJobComplete() && System.nanoTime() < deadline) {
      Thread.sleep(20);
      status = client.getJobStatus(id);
    }
    assertTrue(status.isJobComplete(), id + " did not end: " + status);
    return status;
  }

  @Test
  void aJobRunsOnExecutorsOverRpcAndItsClientReadsItsEndAndCounters() throws Exception {
    FakeExecutor one = FakeExecutor.join(proxy(ExecutorProtocol.class), "container_1", HOST, 2);
    FakeExecutor two = FakeExecutor.join(proxy(ExecutorProtocol.class), "container_2", HOST, 1);
    JobID id = submit(3, 1);
    one.awaitRunning(2);
    two.awaitRunning(1);
    one.succeedAll();
    two.succeedAll();
    AttemptAssignment reduce = one.awaitRunning(1).get(0);
    assertEquals(3, reduce.mapOutputs().size(), "the reduce's map outputs, over the wire");
    one.succeed(reduce);
    JobStatus status = awaitEnd(id);
    assertEquals(JobStatus.State.SUCCEEDED, status.getState());
    assertEquals(3, client.getJobCounters(id).findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue());
  }

  @Test
  void aFailedJobsClientReadsWhichTaskFailedAndEachAttemptsOwnDiagnostics() throws Exception {
    FakeExecutor executor = FakeExecutor.join(proxy(ExecutorProtocol.class), "container_1", HOST, 1);
    JobID id = submit(1, 0);
    for (int i = 0; i < 4; i++) {
      executor.fail(executor.awaitRunning(1).get(0), "java.io.IOException: bad record " + i);
    }
    JobStatus status = awaitEnd(id);
    assertEquals(JobStatus.State.FAILED, status.getState());
    String task = "task_" + id.toString().substring(4) + "_m_000000";
    assertTrue(status.getFailureInfo().startsWith("Task failed " + task), "failure info: " + status.getFailureInfo());
    TaskAttemptID third = TaskAttemptID.forName("attempt_" + id.toString().substring(4) + "_m_000000_2");
    String[] diagnostics = client.getTaskDiagnostics(third);
    assertEquals(1, diagnostics.length, String.join(" | ", diagnostics));
    assertTrue(diagnostics[0].contains("bad record 2"), diagnostics[0]);
  }

  @Test
  void aKillReturnsWithTheJobKilledWhenItsExecutorNeverAnswers() throws Exception {
    FakeExecutor silent = FakeExecutor.join(proxy(ExecutorProtocol.class), "container_1", HOST, 2);
    JobID id = submit(2, 0);
    silent.awaitRunning(2); // and never asks again
    long start = System.nanoTime();
    client.killJob(id);
    JobStatus status = client.getJobStatus(id);
    long took = (System.nanoTime() - start) / 1_000_000;
    assertEquals(JobStatus.State.KILLED, status.getState(), "the job's state once killJob returned (after " + took
        + " ms, the grace 500 ms)");
    assertEquals(2, client.getJobCounters(id).findCounter(JobCounter.NUM_KILLED_MAPS).getValue());
  }

  @Test
  void theOwnerStoppingTheSessionHearsWhichJobsItRan() throws Exception {
    JobID id = submit(1, 0);
    SessionControlProtocol control = proxy(SessionControlProtocol.class);
    assertArrayEquals(new String[] {id.toString()}, control.stop("stopped by the test"));
    assertEquals("stopped by the test", monitor.tick(System.nanoTime()));
    session.jobs.killAll("Job killed: the Vivace session is ending (stopped by the test)");
    assertFalse(session.jobs.killedJobWatched(), "no client asked about " + id + " before the session ended");
    JobStatus status = awaitEnd(id);
    assertEquals(JobStatus.State.KILLED, status.getState());
    assertEquals("Job killed: the Vivace session is ending (stopped by the test)", status.getFailureInfo());
  }

  @Test
  void theEndingSessionWaitsOnlyForTheClientsThatWatchTheirJobs() throws Exception {
    JobID watched = submit(1, 0);
    JobID unwatched = submit(1, 0);
    client.getJobStatus(watched);
    session.jobs.killAll("Job killed: the Vivace session is ending (stopped by the test)");
    assertFalse(session.jobs.killedJobsEndsSeen(), "the watched job's client has not seen its end");
    assertTrue(session.jobs.killedJobWatched());
    assertEquals(JobStatus.State.KILLED, awaitEnd(watched).getState());
    assertTrue(session.jobs.killedJobsEndsSeen(), "the client that never asked about " + unwatched
        + " is not waited for: it reads the end from YARN");
  }

  @Test
  void aWaitingClientIsToldItsJobsEndInsteadOfPollingTheSessionForIt() throws Exception {
    Waited waited = waitForAOneMapJob();
    JobID id = waited.job();
    int asked = waited.asked();
    int calls = jobCalls.count("getJobStatus") + jobCalls.count("awaitJobEnd");
    assertTrue(calls * 4 <= asked, "the session answered " + jobCalls.counts() + " for " + asked + " status asks");
    assertEquals("awaitJobEnd", jobCalls.endAnsweredBy(id), "the call that told the client the job ended");
  }

  @Test
  void aClientWatchingItsJobReadsTheKillItMadeOnceTheKillReturns() throws Exception {
    FakeExecutor silent = FakeExecutor.join(proxy(ExecutorProtocol.class), "container_1", HOST, 2);
    JobID id = submit(2, 0);
    silent.awaitRunning(2);
    SessionClientProtocol waiting = PushedJobEnds.around(proxy(SessionClientProtocol.class));
    assertEquals(JobStatus.State.RUNNING, waiting.getJobStatus(id).getState());
    Thread.sleep(3 * PushedJobEnds.WAIT_MILLIS); // the watch's waits answer "running" meanwhile
    waiting.killJob(id);
    assertEquals(JobStatus.State.KILLED, waiting.getJobStatus(id).getState());
  }

  @Test
  void aClientWhoseSessionLetsNoMoreCallsWaitAsksAboutItsJobOnceAWaitToTheEnd() throws Exception {
    jobCalls.refuseWaits();
    Waited waited = waitForAOneMapJob();
    JobID id = waited.job();
    int asked = waited.asked();
    assertTrue(jobCalls.count("awaitJobEnd") > 1, "asked again to wait: " + jobCalls.counts());
    int calls = jobCalls.count("getJobStatus") + jobCalls.count("awaitJobEnd");
    assertTrue(calls * 4 <= asked, "the session answered " + jobCalls.counts() + " for " + asked + " status asks");
    assertEquals("getJobStatus", jobCalls.endAnsweredBy(id), "refused every wait, the end came with a status");
  }

  @Test
  void theSessionLetsAsManyCallsWaitForJobsEndsAsItKeepsHandlersFor() throws Exception {
    JobID id = submit(1, 0); // no executor: it runs until killed
    java.util.concurrent.ExecutorService clients = Executors.newFixedThreadPool(SessionJobs.AWAITS);
    try {
      List<java.util.concurrent.Future<JobStatus>> waits = new java.util.ArrayList<>();
      for (int i = 0; i < SessionJobs.AWAITS; i++) {
        waits.add(clients.submit(() -> session.jobs.awaitJobEnd(id, 1000)));
      }
      JobStatus refused;
      do { // once every wait has begun, one more is refused
        refused = session.jobs.awaitJobEnd(id, 0);
      } while (refused != null && !waits.stream().allMatch(java.util.concurrent.Future::isDone));
      assertEquals(null, refused, "a wait beyond the " + SessionJobs.AWAITS + " the session lets wait");
      client.killJob(id);
      for (java.util.concurrent.Future<JobStatus> wait : waits) {
        assertTrue(wait.get().getJobID().equals(id));
      }
      assertEquals(JobStatus.State.KILLED, session.jobs.awaitJobEnd(id, 0).getState(), "a wait once the others ended");
    } finally {
      clients.shutdownNow();
    }
  }

  @Test
  void ofTwoSubmissionsOfOneJobAtOnceOnlyOneTakesIt() throws Exception {
    JobID id = client.getNewJobID();
    String staged = StagedJob.stage(dir, id.getJtIdentifier(), id.getId(), Collections.nCopies(2, new String[0]), 1)
        .submitDir().toString();
    ClientProtocol retry = proxy(ClientProtocol.class);
    java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(2);
    java.util.concurrent.ExecutorService submitters = Executors.newFixedThreadPool(2);
    try {
      List<java.util.concurrent.Future<JobStatus>> submissions = new java.util.ArrayList<>();
      for (ClientProtocol submitter : List.of(client, retry)) {
        submissions.add(submitters.submit(() -> {
          together.await();
          return submitter.submitJob(id, staged, new Credentials());
        }));
      }
      int took = 0;
      List<String> refused = new java.util.ArrayList<>();
      for (java.util.concurrent.Future<JobStatus> submission : submissions) {
        try {
          submission.get();
          took++;
        } catch (java.util.concurrent.ExecutionException e) {
          refused.add(e.getCause().getMessage());
        }
      }
      assertEquals(1, took, "submissions that took the job; refused: " + refused);
      assertTrue(refused.get(0).contains("job " + id + " was already submitted"), refused.get(0));
    } finally {
      submitters.shutdownNow();
    }
  }

  /** A job a client waited for, and how many times it asked for its status. */
  private record Waited(JobID job, int asked) {
  }

  /**
   * Runs a one-map job and waits for it through the pushed ends' client, as Hadoop's job client
   * waits (the status, a short sleep, again): 300 times while the map runs, then, the map let
   * succeed, until the job has ended. The session's calls are counted from the first status asked.
   */
  private Waited waitForAOneMapJob() throws Exception {
    FakeExecutor executor = FakeExecutor.join(proxy(ExecutorProtocol.class), "container_1", HOST, 1);
    JobID id = submit(1, 0);
    AttemptAssignment map = executor.awaitRunning(1).get(0);
    SessionClientProtocol waiting = PushedJobEnds.around(proxy(SessionClientProtocol.class));
    jobCalls.reset();
    int asked = 0;
    for (; asked < 300; asked++) {
      assertEquals(JobStatus.State.RUNNING, waiting.getJobStatus(id).getState());
      Thread.sleep(2);
    }
    executor.succeed(map);
    JobStatus end = waiting.getJobStatus(id);
    for (; !end.isJobComplete(); asked++) {
      Thread.sleep(2);
      end = waiting.getJobStatus(id);
    }
    assertEquals(JobStatus.State.SUCCEEDED, end.getState());
    return new Waited(id, asked);
  }
}
