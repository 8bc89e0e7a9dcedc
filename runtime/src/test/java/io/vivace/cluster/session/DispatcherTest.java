package io.vivace.cluster.session;

import static io.vivace.cluster.session.SessionHarness.awaitEnd;
import static io.vivace.cluster.session.SessionHarness.counter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.rpc.AttemptAssignment;
import io.vivace.cluster.rpc.JobToRead;
import io.vivace.scheduler.JobRun;
import io.vivace.shuffle.net.MapOutputLocation;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.JobStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The session's dispatcher with real jobs ({@link SessionHarness}) and executors played by the test
 * ({@link FakeExecutor}): placement by locality, reduces only once every map's output is on a live
 * executor, slots shared between jobs, and executor loss at every phase of a job: while its call for
 * work waits, while an attempt is being made for it, while it runs a map, once it holds finished
 * maps' outputs, while a map's result is being taken, while it runs a reduce; a reduce that cannot
 * fetch; a job killed while its executor never answers. Each loss ends with the job's output made as
 * without it, its lost attempts counted as killed, never failed. No timing is asserted: where an
 * interleaving matters, the test holds the job's lock to make it happen.
 */
class DispatcherTest {

  private static final String H1 = "198.18.0.1";
  private static final String H2 = "198.18.0.2";
  private static final String H3 = "198.18.0.3";
  private static final long HOUR = 3_600_000;

  @TempDir
  Path dir;
  private SessionHarness session;

  private SessionHarness session(long localityWaitMillis) {
    session = new SessionHarness(dir, localityWaitMillis);
    return session;
  }

  @AfterEach
  void close() throws InterruptedException {
    if (session != null) {
      session.close();
    }
  }

  private static List<String[]> hosts(String... perMap) {
    return java.util.Arrays.stream(perMap).map(h -> new String[] {h}).toList();
  }

  @Test
  void mapsGoToTheHostsOfTheirInputAndTheReduceWaitsForEveryMap() throws Exception {
    SessionHarness s = session(HOUR);
    FakeExecutor one = FakeExecutor.join(s.dispatcher, "container_1", H1, 1);
    FakeExecutor two = FakeExecutor.join(s.dispatcher, "container_2", H2, 1);
    JobRun job = s.submit(hosts(H2, H1), 1);
    AttemptAssignment onOne = one.awaitRunning(1).get(0);
    AttemptAssignment onTwo = two.awaitRunning(1).get(0);
    assertEquals(List.of("executor 1 (" + H1 + ", container_1): 1 of 1 slots busy",
        "executor 2 (" + H2 + ", container_2): 1 of 1 slots busy"), s.dispatcher.executorLoads(),
        "what the session's page says of its executors");
    assertEquals(1, onOne.index(), "the map whose input is on " + H1);
    assertEquals(0, onTwo.index(), "the map whose input is on " + H2);
    one.succeed(onOne);
    assertEquals(List.of(), one.poll(0), "no reduce while a map runs");
    two.succeed(onTwo);
    AttemptAssignment reduce = one.awaitRunning(1).get(0);
    assertFalse(reduce.isMap());
    List<MapOutputLocation> maps = reduce.mapOutputs();
    assertEquals(List.of(H2, H1), maps.stream().map(MapOutputLocation::host).toList(), "where the maps' outputs are");
    assertEquals(List.of(onTwo.attemptId(), onOne.attemptId()), maps.stream().map(MapOutputLocation::attemptId).toList());
    one.succeed(reduce);
    assertEquals(JobStatus.State.SUCCEEDED, awaitEnd(job).status().getState());
    assertEquals(2, counter(job, JobCounter.DATA_LOCAL_MAPS));
    assertEquals(0, s.dispatcher.runningAttempts(true) + s.dispatcher.runningAttempts(false));
    assertEquals(0, s.dispatcher.queuedLaunches());
  }

  @Test
  void aMapWaitsForASlotOnItsHostUntilTheLocalityWaitIsOver() throws Exception {
    SessionHarness s = session(HOUR);
    FakeExecutor near = FakeExecutor.join(s.dispatcher, "container_1", H1, 1);
    JobRun holding = s.submit(hosts(H1), 0);
    AttemptAssignment held = near.awaitRunning(1).get(0);
    FakeExecutor far = FakeExecutor.join(s.dispatcher, "container_2", H3, 1);
    JobRun waiting = s.submit(hosts(H1), 0);
    awaitQueued(s, 1);
    assertEquals(List.of(), far.poll(0), "a map whose input is on a busy executor's host waits for it");
    near.succeed(held);
    AttemptAssignment local = near.awaitRunning(1).get(0);
    near.succeed(local);
    awaitEnd(holding);
    assertEquals(1, counter(awaitEnd(waiting), JobCounter.DATA_LOCAL_MAPS));

    SessionHarness impatient = new SessionHarness(dir.resolve("impatient"), 0);
    try {
      FakeExecutor busy = FakeExecutor.join(impatient.dispatcher, "container_3", H1, 1);
      JobRun first = impatient.submit(hosts(H1), 0);
      busy.awaitRunning(1);
      FakeExecutor other = FakeExecutor.join(impatient.dispatcher, "container_4", H3, 1);
      JobRun second = impatient.submit(hosts(H1), 0);
      AttemptAssignment elsewhere = other.awaitRunning(1).get(0);
      other.succeed(elsewhere);
      busy.succeedAll();
      awaitEnd(first);
      assertEquals(1, counter(awaitEnd(second), JobCounter.RACK_LOCAL_MAPS),
          "without a wait the map runs at once on another host of its rack");
    } finally {
      impatient.close();
    }
  }

  @Test
  void aMapPastItsWaitLeavesTheSlotToAMapWhoseInputIsOnTheExecutorsHost() throws Exception {
    SessionHarness s = session(0);
    FakeExecutor one = FakeExecutor.join(s.dispatcher, "container_1", H1, 1);
    JobRun job = s.submit(hosts(H2, H1), 0);
    awaitQueued(s, 2);
    AttemptAssignment first = one.awaitRunning(1).get(0);
    assertEquals(1, first.index(), "the map whose input is on " + H1 + ", though the one queued before it waited enough");
    FakeExecutor two = FakeExecutor.join(s.dispatcher, "container_2", H2, 1);
    AttemptAssignment second = two.awaitRunning(1).get(0);
    assertEquals(0, second.index());
    one.succeed(first);
    two.succeed(second);
    assertEquals(2, counter(awaitEnd(job), JobCounter.DATA_LOCAL_MAPS));
  }

  @Test
  void withAnExecutorOnEveryHostEveryMapRunsOnAHostOfItsInput() throws Exception {
    SessionHarness s = session(0);
    FakeExecutor one = FakeExecutor.join(s.dispatcher, "container_1", H1, 1);
    FakeExecutor two = FakeExecutor.join(s.dispatcher, "container_2", H2, 1);
    FakeExecutor three = FakeExecutor.join(s.dispatcher, "container_3", H3, 1);
    List<String[]> input = hosts(H1, H1, H2, H2, H3, H3);
    JobRun job = s.submit(input, 0);
    awaitQueued(s, 6);
    for (int round = 0; round < 2; round++) { // asking in the order least fit for the queue's: the last host's first
      for (FakeExecutor executor : List.of(three, two, one)) {
        AttemptAssignment map = executor.awaitRunning(1).get(0);
        assertEquals(executor.host, input.get(map.index())[0], "where map " + map.index() + " runs");
        executor.succeed(map);
      }
    }
    assertEquals(6, counter(awaitEnd(job), JobCounter.DATA_LOCAL_MAPS));
    assertEquals(0, counter(job, JobCounter.RACK_LOCAL_MAPS));
  }

  @Test
  void aStragglingMapsTwinRunsOnAnotherHostWinsAndItsOutputIsTheOneReducesFetch() throws Exception {
    SessionHarness s = session(0);
    FakeExecutor slow = FakeExecutor.join(s.dispatcher, "container_1", H1, 2);
    FakeExecutor sameHost = FakeExecutor.join(s.dispatcher, "container_2", H1, 1);
    FakeExecutor other = FakeExecutor.join(s.dispatcher, "container_3", H2, 1);
    JobRun job = s.submit(2, 1);
    List<AttemptAssignment> maps = slow.awaitRunning(2);
    AttemptAssignment straggler = maps.get(1);
    slow.succeed(maps.get(0));
    slow.progress.put(straggler.attemptId(), 0.01f);
    slow.poll(0); // its status: 1% done
    s.jobs.watch(System.nanoTime());
    assertEquals(1, s.dispatcher.queuedLaunches(), "a speculative attempt of the straggler");
    assertEquals(List.of(), slow.poll(0), "not beside the straggler");
    assertEquals(List.of(), sameHost.poll(0), "nor on another executor of its host");
    AttemptAssignment twin = other.awaitRunning(1).get(0);
    assertEquals(straggler.index(), twin.index());
    assertTrue(twin.isMap());
    assertTrue(other.mayCommit(twin), "the first attempt to ask may commit");
    assertFalse(slow.mayCommit(straggler), "its twin commits");
    other.succeed(twin);
    slow.poll(0);
    assertEquals(List.of(straggler.attemptId()), slow.stops, "the straggler is stopped");
    slow.fail(straggler, "stopped");
    FakeExecutor reducer = null;
    for (FakeExecutor executor : List.of(slow, sameHost, other)) {
      executor.poll(0);
      if (reducer == null && !executor.running.isEmpty()) {
        reducer = executor;
      }
    }
    assertNotNull(reducer, "an executor runs the reduce");
    AttemptAssignment reduce = reducer.running.values().iterator().next();
    assertFalse(reduce.isMap());
    assertEquals(twin.attemptId(), reduce.mapOutputs().get(twin.index()).attemptId(), "the reduce fetches the winner's");
    assertEquals(H2, reduce.mapOutputs().get(twin.index()).host());
    reducer.succeed(reduce);
    assertEquals(JobStatus.State.SUCCEEDED, awaitEnd(job).status().getState());
    assertEquals(3, counter(job, JobCounter.TOTAL_LAUNCHED_MAPS));
    assertEquals(1, counter(job, JobCounter.NUM_KILLED_MAPS));
    assertEquals(0, counter(job, JobCounter.NUM_FAILED_MAPS));
    assertEquals(0, s.dispatcher.runningAttempts(true) + s.dispatcher.runningAttempts(false));
  }

  /**
   * On a one-host cluster a straggler's twin waits for another host; when the straggler itself
   * succeeds, its executor asks for work before the job has recorded that success. The twin must not
   * start then: on the same executor its output would replace the one the job counts, and reduces
   * would be told of an output no longer there.
   */
  @Test
  void aStragglersTwinDoesNotStartBesideItWhileItsSuccessIsBeingRecorded() throws Exception {
    SessionHarness s = session(0);
    FakeExecutor only = FakeExecutor.join(s.dispatcher, "container_1", H1, 2);
    JobRun job = s.submit(2, 1);
    List<AttemptAssignment> maps = only.awaitRunning(2);
    AttemptAssignment straggler = maps.get(1);
    only.succeed(maps.get(0));
    only.progress.put(straggler.attemptId(), 0.01f);
    only.poll(0);
    s.jobs.watch(System.nanoTime());
    assertEquals(1, s.dispatcher.queuedLaunches(), "a speculative attempt of the straggler");
    assertEquals(List.of(), only.poll(0), "not beside the straggler");
    CompletableFuture<Void> report;
    synchronized (job) { // the job cannot record the straggler's success until its lock is free
      report = succeedingAside(only, straggler);
      awaitNotRunning(s, true);
      assertEquals(List.of(), only.poll(0), "no twin of a map whose success is being recorded");
    }
    report.get(FakeExecutor.GUARD_MILLIS, TimeUnit.MILLISECONDS);
    AttemptAssignment reduce = only.awaitRunning(1).get(0);
    assertFalse(reduce.isMap(), "the reduce, not the twin: " + reduce.attemptId());
    assertEquals(straggler.attemptId(), reduce.mapOutputs().get(straggler.index()).attemptId());
    only.succeed(reduce);
    assertEquals(JobStatus.State.SUCCEEDED, awaitEnd(job).status().getState());
    assertEquals(2, counter(job, JobCounter.TOTAL_LAUNCHED_MAPS));
    assertEquals(0, s.dispatcher.queuedLaunches());
  }

  @Test
  void jobsTakeTurnsFewestRunningAttemptsFirst() throws Exception {
    SessionHarness s = session(0);
    JobRun a = s.submit(4, 0);
    JobRun b = s.submit(4, 0);
    awaitQueued(s, 8);
    FakeExecutor executor = FakeExecutor.join(s.dispatcher, "container_1", H1, 2);
    List<AttemptAssignment> first = executor.awaitRunning(2);
    assertNotEquals(first.get(0).jobId(), first.get(1).jobId(), "two jobs, two slots: one each");
    AttemptAssignment ofA = first.stream().filter(x -> x.jobId().equals(a.id().toString())).findFirst().orElseThrow();
    executor.succeed(ofA);
    assertEquals(a.id().toString(), executor.awaitRunning(2).get(1).jobId(), "the freed slot goes to the job running none");
    while (!a.isComplete() || !b.isComplete()) {
      executor.poll(50);
      executor.succeedAll();
    }
    assertEquals(JobStatus.State.SUCCEEDED, awaitEnd(a).status().getState());
    assertEquals(JobStatus.State.SUCCEEDED, awaitEnd(b).status().getState());
  }

  @Test
  void anExecutorLostWhileItsCallForWorkWaitsGetsNone() throws Exception {
    SessionHarness s = session(0);
    FakeExecutor dead = FakeExecutor.join(s.dispatcher, "container_1", H1, 2);
    CompletableFuture<List<AttemptAssignment>> waitingCall = CompletableFuture.supplyAsync(() -> {
      try {
        return dead.poll(HOUR);
      } catch (IOException e) {
        throw new java.util.concurrent.CompletionException(e);
      }
    });
    awaitWaiting(waitingCall);
    s.dispatcher.executorLost(dead.id, "its container ended");
    Exception refused = assertThrows(Exception.class, () -> waitingCall.get(FakeExecutor.GUARD_MILLIS, TimeUnit.MILLISECONDS));
    assertTrue(refused.getCause().getMessage().contains("unknown executor"), refused.toString());
    FakeExecutor alive = FakeExecutor.join(s.dispatcher, "container_2", H2, 2);
    JobRun job = s.submit(2, 0);
    alive.awaitRunning(2);
    alive.succeedAll();
    assertEquals(JobStatus.State.SUCCEEDED, awaitEnd(job).status().getState());
    assertThrows(IOException.class, () -> dead.poll(0), "a lost executor asking again is refused");
  }

  /** The executor is lost after its map was chosen for it and before the attempt is recorded on it. */
  @Test
  void anExecutorLostWhileItsAttemptIsBeingMadeGetsNoneAndTheMapRunsElsewhere() throws Exception {
    SessionHarness s = session(0);
    FakeExecutor dying = FakeExecutor.join(s.dispatcher, "container_1", H1, 1);
    JobRun job = s.submit(1, 0);
    awaitQueued(s, 1);
    CompletableFuture<List<AttemptAssignment>> call;
    synchronized (job) { // the attempt cannot be made until the job's lock is free
      call = CompletableFuture.supplyAsync(() -> {
        try {
          return dying.poll(HOUR);
        } catch (IOException e) {
          throw new java.util.concurrent.CompletionException(e);
        }
      });
      awaitQueued(s, 0);
      s.dispatcher.executorLost(dying.id, "its container ended");
    }
    assertThrows(Exception.class, () -> call.get(FakeExecutor.GUARD_MILLIS, TimeUnit.MILLISECONDS),
        "the lost executor's call ends without work");
    assertEquals(1, s.dispatcher.queuedLaunches(), "the launch waits again");
    FakeExecutor other = FakeExecutor.join(s.dispatcher, "container_2", H2, 1);
    other.awaitRunning(1);
    other.succeedAll();
    assertEquals(JobStatus.State.SUCCEEDED, awaitEnd(job).status().getState());
    assertEquals(1, counter(job, JobCounter.TOTAL_LAUNCHED_MAPS), "the attempt never ran on the lost executor");
  }

  @Test
  void aMapRunningOnALostExecutorRunsAgainAndCountsAsKilled() throws Exception {
    SessionHarness s = session(0);
    FakeExecutor lost = FakeExecutor.join(s.dispatcher, "container_1", H1, 1);
    JobRun job = s.submit(1, 1);
    AttemptAssignment first = lost.awaitRunning(1).get(0);
    s.dispatcher.executorLost(lost.id, "its container ended with exit status 137");
    FakeExecutor other = FakeExecutor.join(s.dispatcher, "container_2", H2, 1);
    AttemptAssignment again = other.awaitRunning(1).get(0);
    assertEquals(0, again.index());
    assertNotEquals(first.attemptId(), again.attemptId());
    other.succeed(again);
    other.succeed(other.awaitRunning(1).get(0));
    assertEquals(JobStatus.State.SUCCEEDED, awaitEnd(job).status().getState());
    assertEquals(1, counter(job, JobCounter.NUM_KILLED_MAPS));
    assertEquals(0, counter(job, JobCounter.NUM_FAILED_MAPS));
    assertThrows(IOException.class, () -> lost.succeed(first), "a lost executor's late report is refused");
  }

  @Test
  void finishedMapsWhoseOutputsWentWithTheirExecutorRunAgainBeforeTheReduce() throws Exception {
    SessionHarness s = session(0);
    FakeExecutor lost = FakeExecutor.join(s.dispatcher, "container_1", H1, 2);
    JobRun job = s.submit(2, 1);
    lost.awaitRunning(2);
    lost.succeedAll();
    awaitQueued(s, 1); // the reduce
    s.dispatcher.executorLost(lost.id, "its node was lost");
    FakeExecutor other = FakeExecutor.join(s.dispatcher, "container_2", H2, 2);
    List<AttemptAssignment> rerun = other.awaitRunning(2);
    assertTrue(rerun.stream().allMatch(AttemptAssignment::isMap), "the maps run again first: " + rerun);
    other.succeedAll();
    AttemptAssignment reduce = other.awaitRunning(1).get(0);
    assertTrue(reduce.mapOutputs().stream().allMatch(m -> m.host().equals(H2)), reduce.mapOutputs().toString());
    other.succeed(reduce);
    assertEquals(JobStatus.State.SUCCEEDED, awaitEnd(job).status().getState());
    assertEquals(4, counter(job, JobCounter.TOTAL_LAUNCHED_MAPS));
    assertEquals(0, counter(job, JobCounter.NUM_FAILED_MAPS));
  }

  /** The executor is lost after it reported its map's success and before the job took the map's output. */
  @Test
  void aMapOutputTakenAfterItsExecutorWasLostIsMadeAgain() throws Exception {
    SessionHarness s = session(0);
    FakeExecutor lost = FakeExecutor.join(s.dispatcher, "container_1", H1, 1);
    JobRun job = s.submit(1, 1);
    AttemptAssignment map = lost.awaitRunning(1).get(0);
    CompletableFuture<Void> report;
    synchronized (job) { // the job cannot take the result until its lock is free
      report = succeedingAside(lost, map);
      awaitNotRunning(s, true);
      s.dispatcher.executorLost(lost.id, "its container ended");
    }
    report.get(FakeExecutor.GUARD_MILLIS, TimeUnit.MILLISECONDS);
    FakeExecutor other = FakeExecutor.join(s.dispatcher, "container_2", H2, 1);
    AttemptAssignment again = other.awaitRunning(1).get(0);
    assertTrue(again.isMap(), "the map runs again before the reduce: " + again.attemptId());
    other.succeed(again);
    AttemptAssignment reduce = other.awaitRunning(1).get(0);
    assertEquals(H2, reduce.mapOutputs().get(0).host());
    other.succeed(reduce);
    assertEquals(JobStatus.State.SUCCEEDED, awaitEnd(job).status().getState());
    assertEquals(2, counter(job, JobCounter.TOTAL_LAUNCHED_MAPS));
  }

  @Test
  void aReduceRunningOnALostExecutorRunsAgainWithTheMapsItNeedsMadeAgain() throws Exception {
    SessionHarness s = session(0);
    FakeExecutor lost = FakeExecutor.join(s.dispatcher, "container_1", H1, 2);
    FakeExecutor kept = FakeExecutor.join(s.dispatcher, "container_2", H2, 1);
    JobRun job = s.submit(3, 1);
    lost.awaitRunning(2);
    kept.awaitRunning(1);
    kept.succeedAll(); // one map's output on the executor that stays
    lost.succeedAll();
    assertFalse(lost.awaitRunning(1).get(0).isMap(), "the reduce, on the executor about to be lost");
    s.dispatcher.executorLost(lost.id, "its container ended");
    FakeExecutor fresh = FakeExecutor.join(s.dispatcher, "container_3", H3, 2);
    while (!job.isComplete()) {
      for (FakeExecutor e : List.of(kept, fresh)) {
        for (AttemptAssignment a : e.poll(50)) {
          if (!a.isMap()) {
            assertTrue(a.mapOutputs().stream().noneMatch(m -> m.host().equals(H1)), "no output on the lost host");
          }
        }
        e.succeedAll();
      }
    }
    assertEquals(JobStatus.State.SUCCEEDED, awaitEnd(job).status().getState());
    assertEquals(0, counter(job, JobCounter.NUM_FAILED_MAPS) + counter(job, JobCounter.NUM_FAILED_REDUCES));
  }

  @Test
  void aReduceThatCannotFetchAMapsOutputRunsAgainAfterTheMap() throws Exception {
    SessionHarness s = session(0);
    FakeExecutor executor = FakeExecutor.join(s.dispatcher, "container_1", H1, 2);
    JobRun job = s.submit(2, 1);
    executor.awaitRunning(2);
    executor.succeedAll();
    AttemptAssignment reduce = executor.awaitRunning(1).get(0);
    executor.cannotFetch(reduce, 1);
    AttemptAssignment map = executor.awaitRunning(1).get(0);
    assertTrue(map.isMap() && map.index() == 1, "map 1 runs again first: " + map.attemptId());
    executor.succeed(map);
    AttemptAssignment again = executor.awaitRunning(1).get(0);
    assertEquals(map.attemptId(), again.mapOutputs().get(1).attemptId(), "the reduce fetches the new output");
    executor.succeed(again);
    assertEquals(JobStatus.State.SUCCEEDED, awaitEnd(job).status().getState());
    assertEquals(1, counter(job, JobCounter.NUM_KILLED_REDUCES));
    assertEquals(0, counter(job, JobCounter.NUM_FAILED_REDUCES));
  }

  @Test
  void aKilledJobsAttemptsAreStoppedOnTheirExecutor() throws Exception {
    SessionHarness s = session(0);
    FakeExecutor executor = FakeExecutor.join(s.dispatcher, "container_1", H1, 2);
    JobRun job = s.submit(2, 0);
    List<AttemptAssignment> running = executor.awaitRunning(2);
    job.terminate("killed by the test");
    executor.poll(0);
    assertEquals(running.stream().map(AttemptAssignment::attemptId).sorted().toList(),
        executor.stops.stream().sorted().toList(), "the executor is asked to stop both attempts");
    for (AttemptAssignment attempt : running) {
      executor.fail(attempt, "stopped");
    }
    assertEquals(JobStatus.State.KILLED, awaitEnd(job).status().getState());
    assertEquals(2, counter(job, JobCounter.NUM_KILLED_MAPS));
    assertEquals(0, s.dispatcher.runningAttempts(true), "the slots are free");
  }

  @Test
  void aKilledJobEndsWithinTheGraceWhenItsExecutorNeverAnswers() throws Exception {
    SessionHarness s = session(0);
    FakeExecutor silent = FakeExecutor.join(s.dispatcher, "container_1", H1, 1);
    JobRun job = s.submit(1, 0);
    silent.awaitRunning(1);
    job.terminate("killed by the test");
    assertEquals(0, s.dispatcher.giveUpOverdue(System.nanoTime(), HOUR * 1_000_000L), "within the grace: waits");
    assertFalse(job.isComplete());
    assertEquals(1, s.dispatcher.giveUpOverdue(System.nanoTime() + 2 * HOUR * 1_000_000L, HOUR * 1_000_000L));
    assertEquals(JobStatus.State.KILLED, awaitEnd(job).status().getState());
    assertEquals(1, s.dispatcher.runningAttempts(true), "the executor's slot is taken until it answers or is lost");
    s.dispatcher.executorLost(silent.id, "it asked for no work");
    assertEquals(0, s.dispatcher.runningAttempts(true));
  }

  @Test
  void anAttemptALiveExecutorNoLongerHoldsFreesItsSlotAndItsTaskRunsAgain() throws Exception {
    SessionHarness s = session(0);
    FakeExecutor only = FakeExecutor.join(s.dispatcher, "container_1", H1, 1);
    JobRun job = s.submit(1, 0);
    AttemptAssignment first = only.awaitRunning(1).get(0);
    assertEquals(List.of(), only.poll(0), "while the executor holds the attempt, its one slot stays taken");
    assertEquals(1, s.dispatcher.runningAttempts(true));
    only.forget(first); // its report lost on the way
    AttemptAssignment again = only.awaitRunning(1).get(0);
    assertEquals(first.index(), again.index());
    assertNotEquals(first.attemptId(), again.attemptId());
    only.succeed(again);
    assertEquals(JobStatus.State.SUCCEEDED, awaitEnd(job).status().getState());
    assertEquals(1, counter(job, JobCounter.NUM_KILLED_MAPS), "the attempt lost on the way counts killed");
    assertEquals(0, s.dispatcher.runningAttempts(true));
  }

  @Test
  void anAttemptGivenUpOnFreesItsSlotOnceItsExecutorNoLongerHoldsIt() throws Exception {
    SessionHarness s = session(0);
    FakeExecutor slow = FakeExecutor.join(s.dispatcher, "container_1", H1, 1);
    JobRun job = s.submit(1, 0);
    AttemptAssignment attempt = slow.awaitRunning(1).get(0);
    job.terminate("killed by the test");
    assertEquals(1, s.dispatcher.giveUpOverdue(System.nanoTime() + 2 * HOUR * 1_000_000L, HOUR * 1_000_000L));
    assertEquals(JobStatus.State.KILLED, awaitEnd(job).status().getState());
    slow.poll(0);
    assertEquals(1, s.dispatcher.runningAttempts(true), "held by its executor: the slot stays taken");
    slow.forget(attempt); // its end never reported
    slow.poll(0);
    assertEquals(0, s.dispatcher.runningAttempts(true), "the slot is free");
    assertEquals(List.of("executor 1 (" + H1 + ", container_1): 0 of 1 slots busy"), s.dispatcher.executorLoads());
  }

  // ---- helpers ------------------------------------------------------------------------------

  /** The executor reports the attempt's success from another thread (so the test may hold the job's lock meanwhile). */
  private static CompletableFuture<Void> succeedingAside(FakeExecutor executor, AttemptAssignment attempt) {
    return CompletableFuture.runAsync(() -> {
      try {
        executor.succeed(attempt);
      } catch (IOException e) {
        throw new java.util.concurrent.CompletionException(e);
      }
    });
  }

  private SessionHarness sessionPrefetchingBelow(long millis) {
    session = new SessionHarness(dir, 0, conf -> conf.setLong("vivace.session.prefetch.below.ms", millis));
    return session;
  }

  @Test
  void anExecutorIsGivenAnAttemptMoreASlotOnceItsJobsAttemptsAreShorterThanThePrefetchBound() throws Exception {
    SessionHarness s = sessionPrefetchingBelow(HOUR);
    FakeExecutor one = FakeExecutor.join(s.dispatcher, "container_1", H1, 1);
    JobRun job = s.submit(5, 0);
    AttemptAssignment first = one.awaitRunning(1).get(0);
    awaitQueued(s, 4);
    assertEquals(List.of(), one.poll(0), "nothing ahead of a free slot before any attempt of the job ended");
    one.succeed(first);
    assertEquals(2, one.poll(0).size(), "the free slot's attempt and one ahead of it");
    assertEquals(List.of(), one.poll(0), "one attempt more a slot at most");
    one.succeedAll();
    assertEquals(2, one.poll(0).size());
    one.succeedAll();
    assertEquals(JobStatus.State.SUCCEEDED, awaitEnd(job).status().getState());
    assertEquals(5, counter(job, JobCounter.TOTAL_LAUNCHED_MAPS));
    assertEquals(0, s.dispatcher.runningAttempts(true));

    SessionHarness slow = new SessionHarness(dir.resolve("slow"), 0,
        conf -> conf.setLong("vivace.session.prefetch.below.ms", 1));
    try {
      FakeExecutor executor = FakeExecutor.join(slow.dispatcher, "container_2", H1, 1);
      JobRun longer = slow.submit(3, 0);
      AttemptAssignment attempt = executor.awaitRunning(1).get(0);
      Thread.sleep(20); // an attempt longer than the bound
      executor.succeed(attempt);
      assertEquals(1, executor.poll(0).size(), "a job whose attempts take longer: only the free slot's");
      executor.succeedAll();
      executor.awaitRunning(1);
      executor.succeedAll();
      assertEquals(JobStatus.State.SUCCEEDED, awaitEnd(longer).status().getState());
    } finally {
      slow.close();
    }
  }

  @Test
  void noAttemptIsGivenAheadWhileTheSessionHasAFreeSlotForIt() throws Exception {
    SessionHarness s = sessionPrefetchingBelow(HOUR);
    FakeExecutor one = FakeExecutor.join(s.dispatcher, "container_1", H1, 1);
    FakeExecutor two = FakeExecutor.join(s.dispatcher, "container_2", H2, 1);
    JobRun job = s.submit(3, 0);
    one.succeed(one.awaitRunning(1).get(0));
    assertEquals(1, one.poll(0).size(), "the free slot's attempt only: " + two.container + " has a free slot for the other");
    assertEquals(1, two.poll(0).size());
    one.succeedAll();
    two.succeedAll();
    assertEquals(JobStatus.State.SUCCEEDED, awaitEnd(job).status().getState());
  }

  @Test
  void aJobTakenIsReadAheadByExecutorsWithFreeSlotsUpToTheBoundAndDroppedWhenNotTaken() throws Exception {
    session = new SessionHarness(dir, 0, conf -> conf.setInt("vivace.session.read.ahead.executors", 2));
    SessionHarness s = session;
    FakeExecutor busy = FakeExecutor.join(s.dispatcher, "container_1", H1, 1);
    JobRun running = s.submit(1, 0);
    AttemptAssignment held = busy.awaitRunning(1).get(0);
    busy.jobsToRead.clear();
    FakeExecutor one = FakeExecutor.join(s.dispatcher, "container_2", H2, 1);
    FakeExecutor two = FakeExecutor.join(s.dispatcher, "container_3", H3, 3);
    FakeExecutor three = FakeExecutor.join(s.dispatcher, "container_4", H3, 2);
    JobRun job = s.submit(1, 0);
    for (FakeExecutor e : List.of(busy, one, two, three)) {
      e.poll(0);
    }
    String id = job.id().toString();
    assertEquals(List.of(id), two.jobsToRead, "the executor with the most free slots");
    assertEquals(List.of(id), three.jobsToRead, "the next");
    assertEquals(List.of(), one.jobsToRead, "past the bound of 2");
    assertEquals(List.of(), busy.jobsToRead, "no free slot");
    busy.succeed(held);
    awaitEnd(running);

    // a job the session does not take: an executor told to read it drops it, one not yet told never hears of it
    JobToRead taken = new JobToRead("job_1700000000000_0901", dir.toString(), new org.apache.hadoop.security.Credentials());
    s.dispatcher.readAhead(taken);
    two.poll(0);
    assertTrue(two.jobsToRead.contains(taken.jobId()), "read ahead: " + two.jobsToRead);
    s.dispatcher.notTaken(taken.jobId());
    two.poll(0);
    three.poll(0);
    assertTrue(two.finishedJobs.contains(taken.jobId()), "a job not taken is over for an executor reading it");
    assertFalse(three.jobsToRead.contains(taken.jobId()) || three.finishedJobs.contains(taken.jobId()),
        "an executor that had not heard of it yet hears nothing: " + three.jobsToRead + ", " + three.finishedJobs);
    assertFalse(one.finishedJobs.contains(taken.jobId()), "one never told of it: nothing to drop");

    assertThrows(RuntimeException.class, () -> s.submit(1, 0, conf -> conf.set("vivace.slots", "many")));
    String refused = new org.apache.hadoop.mapreduce.JobID(SessionHarness.CLUSTER, 3).toString();
    for (FakeExecutor e : List.of(one, two, three)) {
      e.poll(0);
      assertFalse(e.jobsToRead.contains(refused) && !e.finishedJobs.contains(refused),
          e.container + " was left reading the refused " + refused);
    }
  }

  /**
   * A job's launches go first to the executor reading it ahead (one by default): another executor
   * asking at once gets nothing of it, and gets it once the launch has waited 100 ms while the
   * reader did not ask (its waiting call woken for it, not left to its deadline).
   */
  @Test
  void aJobsLaunchesGoFirstToTheExecutorReadingItAhead() throws Exception {
    SessionHarness s = session(0);
    FakeExecutor reader = FakeExecutor.join(s.dispatcher, "container_1", H1, 2);
    FakeExecutor other = FakeExecutor.join(s.dispatcher, "container_2", H2, 1);
    JobRun first = s.submit(1, 0);
    awaitQueued(s, 1);
    assertEquals(List.of(), other.poll(0), "the launch of a job read ahead elsewhere, asked for at once");
    assertEquals(1, reader.poll(0).size(), "the reader's");
    assertEquals(List.of(first.id().toString()), reader.jobsToRead);
    assertEquals(List.of(), other.jobsToRead, "one executor reads a job ahead by default");

    JobRun second = s.submit(1, 0); // read ahead by the reader again (as many free slots, and first)
    awaitQueued(s, 1);
    List<AttemptAssignment> taken = other.poll(FakeExecutor.GUARD_MILLIS);
    assertEquals(1, taken.size(), "the launch the reader did not ask for, after its wait");
    assertEquals(second.id().toString(), taken.get(0).jobId());
    assertTrue(reader.poll(0).isEmpty());
    assertEquals(List.of(first.id().toString(), second.id().toString()), reader.jobsToRead);
    reader.succeedAll();
    other.succeedAll();
    assertEquals(JobStatus.State.SUCCEEDED, awaitEnd(first).status().getState());
    assertEquals(JobStatus.State.SUCCEEDED, awaitEnd(second).status().getState());
  }

  private static void awaitQueued(SessionHarness s, int launches) throws InterruptedException {
    long deadline = System.nanoTime() + FakeExecutor.GUARD_MILLIS * 1_000_000L;
    while (s.dispatcher.queuedLaunches() != launches && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertEquals(launches, s.dispatcher.queuedLaunches(), "launches queued");
  }

  /** Until no attempt of the kind is recorded as running (an executor's report was taken). */
  private static void awaitNotRunning(SessionHarness s, boolean maps) throws InterruptedException {
    long deadline = System.nanoTime() + FakeExecutor.GUARD_MILLIS * 1_000_000L;
    while (s.dispatcher.runningAttempts(maps) > 0 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertEquals(0, s.dispatcher.runningAttempts(maps));
  }

  /** Until the call has had time to reach its wait (it returns only with work or when its executor goes). */
  private static void awaitWaiting(CompletableFuture<?> call) throws InterruptedException {
    Thread.sleep(200);
    assertFalse(call.isDone(), "the call waits for work");
  }

}
