package io.vivace.cluster.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.rpc.AttemptAssignment;
import io.vivace.scheduler.JobRun;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.mapreduce.JobStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dispatcher under every interleaving threads make: executors (each on a thread of its own)
 * ask for work, run attempts for random short times and report them (a first attempt fails now and
 * then, a reduce cannot fetch now and then), while another thread declares random executors lost
 * (they join again as new ones) and gives up on attempts that do not stop, and some jobs are killed.
 * Every job ends as it should (succeeded, or killed when it was killed), none hangs, and the session
 * is empty at the end: nothing queued, nothing running, every job closed.
 */
class DispatcherChaosTest {

  private static final int JOBS = 12;
  private static final int EXECUTORS = 4;

  @TempDir
  Path dir;

  @Test
  void jobsEndAsTheyShouldWhileExecutorsComeAndGoAtRandom() throws Exception {
    try (SessionHarness s = new SessionHarness(dir, 0)) {
      AtomicBoolean done = new AtomicBoolean();
      Map<Integer, FakeExecutor> live = new ConcurrentHashMap<>();
      AtomicInteger losses = new AtomicInteger();
      AtomicInteger containers = new AtomicInteger();
      List<Thread> threads = new ArrayList<>();
      List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
      for (int e = 0; e < EXECUTORS; e++) {
        long seed = 17 + e;
        threads.add(new Thread(() -> runExecutor(s, seed, live, containers, done, errors), "fake-executor-" + e));
      }
      threads.add(new Thread(() -> {
        Random random = new Random(99);
        while (!done.get()) {
          sleep(15);
          if (random.nextInt(10) == 0 && !live.isEmpty()) {
            List<Integer> ids = new ArrayList<>(live.keySet());
            int id = ids.get(random.nextInt(ids.size()));
            s.dispatcher.executorLost(id, "lost by the test");
            losses.incrementAndGet();
          }
          s.dispatcher.giveUpOverdue(System.nanoTime(), 500_000_000L);
        }
      }, "chaos"));
      threads.forEach(Thread::start);

      Random random = new Random(5);
      List<JobRun> jobs = new ArrayList<>();
      List<Boolean> killed = new ArrayList<>();
      for (int j = 0; j < JOBS; j++) {
        JobRun job = s.submit(1 + random.nextInt(6), random.nextInt(4));
        jobs.add(job);
        boolean kill = j % 6 == 5;
        killed.add(kill);
        if (kill) {
          sleep(random.nextInt(50));
          job.terminate("killed by the test");
        }
        if (j % 4 == 3) {
          SessionHarness.awaitEnd(jobs.get(j - 2)); // a few jobs at a time
        }
      }
      for (int j = 0; j < JOBS; j++) {
        JobStatus.State state = SessionHarness.awaitEnd(jobs.get(j)).status().getState();
        if (killed.get(j)) {
          assertTrue(state == JobStatus.State.KILLED || state == JobStatus.State.SUCCEEDED,
              "job " + j + ", killed: " + state);
        } else {
          assertEquals(JobStatus.State.SUCCEEDED, state, "job " + j + ": " + jobs.get(j).status().getFailureInfo());
        }
      }
      long deadline = System.nanoTime() + FakeExecutor.GUARD_MILLIS * 1_000_000L;
      while (s.dispatcher.runningAttempts(true) + s.dispatcher.runningAttempts(false) > 0
          && System.nanoTime() < deadline) {
        sleep(10);
      }
      done.set(true);
      for (Thread thread : threads) {
        thread.join(FakeExecutor.GUARD_MILLIS);
      }
      assertEquals(List.of(), errors);
      assertEquals(0, s.dispatcher.queuedLaunches(), "launches left queued");
      assertEquals(0, s.dispatcher.runningAttempts(true) + s.dispatcher.runningAttempts(false), "attempts left running");
      assertEquals(List.of(), s.dispatcher.jobRuns(), "jobs left open");
      assertTrue(losses.get() > 0, "executors were lost");
      System.out.println("chaos: " + JOBS + " jobs, " + losses.get() + " executors lost, " + containers.get()
          + " joined");
    }
  }

  private static void runExecutor(SessionHarness s, long seed, Map<Integer, FakeExecutor> live,
                                  AtomicInteger containers, AtomicBoolean done, List<Throwable> errors) {
    Random random = new Random(seed);
    FakeExecutor executor = null;
    try {
      while (!done.get()) {
        if (executor == null) {
          executor = FakeExecutor.join(s.dispatcher, "container_" + containers.incrementAndGet(), "198.18.0."
              + (1 + random.nextInt(3)), 1 + random.nextInt(3));
          live.put(executor.id, executor);
        }
        try {
          executor.poll(20);
          for (AttemptAssignment attempt : new ArrayList<>(executor.running.values())) {
            if (executor.stops.remove(attempt.attemptId())) {
              executor.fail(attempt, "stopped");
            } else if (random.nextInt(3) == 0) {
              finish(executor, attempt, random);
            }
          }
        } catch (IOException lost) {
          live.remove(executor.id);
          executor = null; // a new JVM in a new container
        }
      }
    } catch (Throwable t) {
      errors.add(t);
    }
  }

  private static void finish(FakeExecutor executor, AttemptAssignment attempt, Random random) throws IOException {
    boolean first = attempt.attemptId().endsWith("_0");
    if (first && attempt.isMap() && random.nextInt(10) == 0) {
      executor.fail(attempt, "a first attempt failing");
    } else if (first && !attempt.isMap() && !attempt.mapOutputs().isEmpty() && random.nextInt(8) == 0) {
      executor.cannotFetch(attempt, attempt.mapOutputs().get(0).mapIndex());
    } else {
      executor.succeed(attempt);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
