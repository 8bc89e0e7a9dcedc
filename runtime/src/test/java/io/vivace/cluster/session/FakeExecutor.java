package io.vivace.cluster.session;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.rpc.Assignments;
import io.vivace.cluster.rpc.AttemptAssignment;
import io.vivace.cluster.rpc.AttemptResult;
import io.vivace.cluster.rpc.AttemptStatus;
import io.vivace.cluster.rpc.ExecutorInfo;
import io.vivace.cluster.rpc.ExecutorProtocol;
import io.vivace.cluster.rpc.StatusBatch;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.mapred.Counters;

/**
 * An executor of a session as the session sees one, without its JVM: it joins, asks for work
 * (statuses of what it runs included) and reports attempts' ends through {@link ExecutorProtocol},
 * the session's dispatcher itself or an RPC proxy to it; what it runs is whatever the test says
 * happened to each attempt.
 */
final class FakeExecutor {

  /** How long a test waits for work that should come (a hang guard; work comes at once). */
  static final long GUARD_MILLIS = 30_000;

  private final ExecutorProtocol session;
  final String container;
  final String host;
  final int id;
  /** Attempts given to it whose ends it has not reported, by id. */
  final Map<String, AttemptAssignment> running = new LinkedHashMap<>();
  /** Attempts the session asked it to stop. */
  final List<String> stops = new ArrayList<>();
  final List<String> finishedJobs = new ArrayList<>();
  /** Jobs the session told it to read ahead of their attempts. */
  final List<String> jobsToRead = new ArrayList<>();
  /** The progress it reports of an attempt, where not the default 0.5. */
  final Map<String, Float> progress = new LinkedHashMap<>();

  private FakeExecutor(ExecutorProtocol session, String container, String host, int id) {
    this.session = session;
    this.container = container;
    this.host = host;
    this.id = id;
  }

  static FakeExecutor join(ExecutorProtocol session, String container, String host, int slots) throws IOException {
    return new FakeExecutor(session, container, host,
        session.register(new ExecutorInfo(container, host, 7000 + container.hashCode() % 1000, slots)));
  }

  /** Asks once for work, waiting up to {@code waitMillis} for some; returns the attempts it got. */
  List<AttemptAssignment> poll(long waitMillis) throws IOException {
    List<AttemptStatus> statuses = new ArrayList<>();
    for (String attempt : running.keySet()) {
      statuses.add(new AttemptStatus(attempt, progress.getOrDefault(attempt, 0.5f), "running", 1));
    }
    Assignments work = session.nextWork(id, waitMillis, new StatusBatch(statuses));
    for (AttemptAssignment attempt : work.attempts()) {
      running.put(attempt.attemptId(), attempt);
    }
    stops.addAll(work.stops());
    finishedJobs.addAll(work.finishedJobs());
    work.jobsToRead().forEach(job -> jobsToRead.add(job.jobId()));
    return work.attempts();
  }

  /** Asks until it runs at least {@code n} attempts (a guard fails the test if they never come). */
  List<AttemptAssignment> awaitRunning(int n) throws IOException {
    long deadline = System.nanoTime() + GUARD_MILLIS * 1_000_000L;
    while (running.size() < n && System.nanoTime() < deadline) {
      poll(100);
    }
    assertTrue(running.size() >= n, container + " runs " + running.keySet() + ", expected " + n + " attempts");
    return new ArrayList<>(running.values());
  }

  /** The attempt it runs of the task ({@code m} or {@code r}, index), failing when it runs none. */
  AttemptAssignment attemptOf(char type, int index) {
    for (AttemptAssignment attempt : running.values()) {
      if (attempt.isMap() == (type == 'm') && attempt.index() == index) {
        return attempt;
      }
    }
    throw new AssertionError(container + " runs no attempt of " + type + " " + index + ": " + running.keySet());
  }

  /** Whether the session lets the attempt commit its task's output. */
  boolean mayCommit(AttemptAssignment attempt) throws IOException {
    return session.mayCommit(id, attempt.attemptId());
  }

  void succeed(AttemptAssignment attempt) throws IOException {
    report(attempt, new AttemptResult(attempt.attemptId(), true, new Counters(), "", new int[0]));
  }

  void fail(AttemptAssignment attempt, String why) throws IOException {
    report(attempt, new AttemptResult(attempt.attemptId(), false, new Counters(), why, new int[0]));
  }

  /** A reduce that could not fetch the outputs of {@code maps}. */
  void cannotFetch(AttemptAssignment reduce, int... maps) throws IOException {
    report(reduce, new AttemptResult(reduce.attemptId(), false, new Counters(), "could not fetch", maps));
  }

  /** Every attempt it runs succeeds, in order. */
  void succeedAll() throws IOException {
    for (AttemptAssignment attempt : new ArrayList<>(running.values())) {
      succeed(attempt);
    }
  }

  /** Reports the end, and holds the attempt no longer once the session has it (as an executor does). */
  private void report(AttemptAssignment attempt, AttemptResult result) throws IOException {
    session.attemptsDone(id, new io.vivace.cluster.rpc.AttemptResults(List.of(result)));
    running.remove(attempt.attemptId());
  }

  /** Drops the attempt without a word to the session, as when its answer or report was lost on the way. */
  void forget(AttemptAssignment attempt) {
    running.remove(attempt.attemptId());
  }
}
