package io.vivace.cluster.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.ContainerSpec;
import io.vivace.scheduler.JobRun;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.Resource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The session's executor pool ({@link ExecutorContainers}) against a YARN played by the test
 * ({@link FakeYarn}) and the real dispatcher with real jobs: as many containers as waiting work
 * calls for within the minimum and maximum, never more executors than the maximum whatever YARN
 * gives, requests taken back when the work is gone, idle executors given back, lost ones replaced,
 * and a job with no slot told what it waits for; containers asked for on the hosts of the waiting
 * maps' input that have no executor, one each, and the maps then run on their input's hosts.
 */
class ExecutorContainersTest {

  private static final String HOST = "198.18.0.1";
  private static final String H1 = HOST;
  private static final String H2 = "198.18.0.2";
  private static final String H3 = "198.18.0.3";
  private static final String H4 = "198.18.0.4";
  private static final String H5 = "198.18.0.5";
  private static final long SECOND = 1_000_000_000L;

  @TempDir
  Path dir;
  private SessionHarness session;
  private final FakeYarn yarn = new FakeYarn();
  private ExecutorContainers containers;

  private ExecutorContainers pool(int min, int max, int slots) throws Exception {
    session = new SessionHarness(dir, 0);
    containers = new ExecutorContainers(new ExecutorContainers.Settings(min, max, 512, 1, slots, 60 * SECOND),
        new ContainerSpec(Map.of(), "vivace-lib/*", List.of()), ByteBuffer.allocate(0), session.dispatcher, yarn);
    containers.start("am-host", 4000, "http://am-host:4001/");
    return containers;
  }

  @AfterEach
  void close() throws InterruptedException {
    if (session != null) {
      session.close();
    }
  }

  /** The executor of a launched container joins the session (as its JVM would, once started). */
  private FakeExecutor joins(Container container, int slots) throws Exception {
    return FakeExecutor.join(session.dispatcher, container.getId().toString(), container.getNodeId().getHost(), slots);
  }

  @Test
  void keepsTheMinimumAndAsksForMoreAsWorkWaitsUpToTheMaximum() throws Exception {
    ExecutorContainers pool = pool(1, 3, 2);
    pool.balance(0);
    assertEquals(1, yarn.outstanding, "the minimum, asked for at once");
    Container first = yarn.give(1, HOST).get(0);
    assertEquals(0, yarn.outstanding);
    assertEquals(List.of(first), yarn.launched);
    FakeExecutor executor = joins(first, 2);
    JobRun job = session.submit(9, 0);
    awaitQueued(9);
    pool.balance(SECOND);
    assertEquals(2, yarn.outstanding, "9 launches, 2 free slots: 4 more executors wanted, 2 allowed");
    yarn.give(2, HOST);
    pool.balance(2 * SECOND);
    assertEquals(0, yarn.outstanding, "nothing more beyond the maximum");
    assertEquals(3, pool.startedContainers());
    executor.awaitRunning(2);
    while (!job.isComplete()) {
      executor.poll(50);
      executor.succeedAll();
    }
  }

  @Test
  void containersAreAskedForOnTheHostsOfTheWaitingMapsInputOneEachThenAnywhere() throws Exception {
    ExecutorContainers pool = pool(1, 6, 1);
    pool.balance(0);
    assertEquals(List.of(List.of()), yarn.asks, "the minimum, anywhere: no work tells where");
    joins(yarn.give(1, H1).get(0), 1);
    session.submit(List.of(new String[] {H1, H2}, new String[] {H1, H3}, new String[] {H2, H3}, new String[] {H2},
        new String[] {H3, H4}, new String[] {H1, H4}, new String[] {H2, H4}, new String[] {H3}), 0);
    awaitQueued(8);
    pool.balance(SECOND);
    assertEquals(List.of(List.of(H2), List.of(H3), List.of(H4), List.of(), List.of()), yarn.asks,
        "8 launches, 1 free slot: 5 more executors, first one on each host of the input without one, "
        + "the one holding the most maps first, then anywhere");
    yarn.give(1, H3);
    assertEquals(List.of(List.of(H2), List.of(H4)), yarn.namedAsks(), "the request on the container's host taken back");
    yarn.give(1, H5);
    assertEquals(List.of(List.of(H2), List.of(H4)), yarn.namedAsks(), "one asked anywhere taken back");
    yarn.give(2, H5);
    assertEquals(List.of(List.of(H4)), yarn.namedAsks(), "YARN relaxed a node: the oldest request taken back");
    assertEquals(1, yarn.outstanding);
  }

  @Test
  void withExecutorsOnTheHostsAskedForEveryMapRunsOnAHostOfItsInput() throws Exception {
    ExecutorContainers pool = pool(1, 4, 2);
    pool.balance(0);
    FakeExecutor first = joins(yarn.give(1, H1).get(0), 2);
    JobRun job = session.submit(List.of(new String[] {H1, H2}, new String[] {H1, H3}, new String[] {H2, H3},
        new String[] {H2}, new String[] {H3, H4}, new String[] {H1, H4}, new String[] {H2, H4}, new String[] {H3}), 0);
    awaitQueued(8);
    pool.balance(SECOND);
    assertEquals(List.of(List.of(H2), List.of(H3), List.of(H4)), yarn.asks);
    List<FakeExecutor> executors = new java.util.ArrayList<>(List.of(first));
    for (List<String> nodes : List.copyOf(yarn.asks)) {
      executors.add(joins(yarn.give(1, nodes.get(0)).get(0), 2));
    }
    for (FakeExecutor executor : executors) {
      executor.awaitRunning(2);
      executor.succeedAll();
    }
    SessionHarness.awaitEnd(job);
    assertEquals(8, SessionHarness.counter(job, org.apache.hadoop.mapreduce.JobCounter.DATA_LOCAL_MAPS));
  }

  @Test
  void containersBeyondTheMaximumAreGivenBackAtOnce() throws Exception {
    ExecutorContainers pool = pool(1, 2, 1);
    session.submit(6, 0);
    awaitQueued(6);
    pool.balance(0);
    assertEquals(2, yarn.outstanding);
    List<Container> given = yarn.give(4, HOST); // YARN gives more than asked: its asks lag the session's
    assertEquals(2, pool.startedContainers(), "at most vivace.session.executors.max executors");
    assertEquals(given.subList(0, 2), yarn.launched);
    assertEquals(List.of(given.get(2).getId(), given.get(3).getId()), yarn.released, "the others given back");
    pool.balance(SECOND);
    assertEquals(0, yarn.outstanding);
  }

  @Test
  void requestsNoLongerNeededAreTakenBackAndIdleExecutorsGivenBack() throws Exception {
    ExecutorContainers pool = pool(1, 4, 1);
    JobRun job = session.submit(4, 0);
    awaitQueued(4);
    pool.balance(0);
    assertEquals(4, yarn.outstanding);
    Container first = yarn.give(1, HOST).get(0);
    Container second = yarn.give(1, HOST).get(0);
    FakeExecutor one = joins(first, 1);
    FakeExecutor two = joins(second, 1);
    while (!job.isComplete()) {
      one.poll(20);
      two.poll(20);
      one.succeedAll();
      two.succeedAll();
    }
    pool.balance(10 * SECOND);
    assertEquals(0, yarn.outstanding, "no work waits: the requests are taken back");
    pool.balance(100 * SECOND);
    assertEquals(1, yarn.stopped.size(), "one executor idle beyond its timeout, above the minimum, goes back");
    assertEquals(1, session.dispatcher.executorCount());
    pool.balance(200 * SECOND);
    assertEquals(1, yarn.stopped.size(), "the minimum stays");
  }

  @Test
  void aLostExecutorIsReplacedAndItsAttemptsRunAgain() throws Exception {
    ExecutorContainers pool = pool(1, 1, 2);
    pool.balance(0);
    Container container = yarn.give(1, HOST).get(0);
    FakeExecutor lost = joins(container, 2);
    JobRun job = session.submit(2, 0);
    lost.awaitRunning(2);
    yarn.end(container);
    assertEquals(0, session.dispatcher.executorCount(), "the executor of the ended container is lost");
    pool.balance(SECOND);
    assertEquals(1, yarn.outstanding, "a container in its place");
    FakeExecutor replacement = joins(yarn.give(1, HOST).get(0), 2);
    replacement.awaitRunning(2);
    replacement.succeedAll();
    SessionHarness.awaitEnd(job);
    assertEquals(2, SessionHarness.counter(job, org.apache.hadoop.mapreduce.JobCounter.NUM_KILLED_MAPS));
  }

  @Test
  void aJobWithoutASlotIsToldWhatItWaitsForAndTheSessionEndsWithoutItsResourceManager() throws Exception {
    ExecutorContainers pool = pool(2, 2, 2);
    SessionMonitor monitor = new SessionMonitor(session.jobs, session.dispatcher, pool,
        new SessionMonitor.Timeouts(3600 * SECOND, 3600 * SECOND, SECOND, 10 * SECOND));
    yarn.headroom = Resource.newInstance(256, 4);
    JobRun job = session.submit(3, 0);
    awaitQueued(3);
    long start = System.nanoTime();
    assertNull(monitor.tick(start));
    assertEquals("", job.status().getSchedulingInfo(), "not told before vivace.session.wait.report.ms");
    assertNull(monitor.tick(start + 11 * SECOND));
    String info = job.status().getSchedulingInfo();
    assertTrue(info.startsWith("3 tasks wait for a slot since "), info);
    assertTrue(info.contains("the session has 0 executors") && info.contains("2 more containers of 512 MB and 1 vcores")
        && info.contains("headroom for the session is 256 MB and 4 vcores: other applications hold"), info);

    FakeExecutor executor = joins(yarn.give(1, HOST).get(0), 2);
    executor.awaitRunning(2);
    assertNull(monitor.tick(start + 12 * SECOND));
    assertEquals("", job.status().getSchedulingInfo(), "running again, it waits for nothing");

    yarn.events.resourceManagerLost("the ResourceManager cannot be reached: connection refused");
    assertEquals("the ResourceManager cannot be reached: connection refused", monitor.tick(start + 13 * SECOND));
    pool.stop(FinalApplicationStatus.SUCCEEDED, "session ended");
    assertNull(yarn.unregistered, "no unregistering from a ResourceManager that is gone");
  }

  @Test
  void executorsLargerThanAnyContainerAreNeverAskedForAndTheJobIsToldWhy() throws Exception {
    yarn.largest = Resource.newInstance(256, 4);
    ExecutorContainers pool = pool(1, 2, 2);
    SessionMonitor monitor = new SessionMonitor(session.jobs, session.dispatcher, pool,
        new SessionMonitor.Timeouts(3600 * SECOND, 3600 * SECOND, SECOND, 0));
    JobRun job = session.submit(1, 0);
    awaitQueued(1);
    assertNull(monitor.tick(System.nanoTime() + SECOND));
    assertEquals(0, yarn.outstanding, "YARN would refuse them, and end the session");
    String info = job.status().getSchedulingInfo();
    assertTrue(info.contains("no executor can start: the session's executors need 512 MB and 1 vcores")
        && info.contains("the largest container YARN gives: 256 MB and 4 vcores"), info);
  }

  private void awaitQueued(int launches) throws InterruptedException {
    long deadline = System.nanoTime() + FakeExecutor.GUARD_MILLIS * 1_000_000L;
    while (session.dispatcher.queuedLaunches() != launches && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertEquals(launches, session.dispatcher.queuedLaunches(), "launches queued");
  }
}
