package io.vivace.realcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A job run on an engine while a fault is made to one worker, at the first moment that worker runs
 * some of the job's work and is not the host of the job's application master: for a session, an
 * executor there with a busy slot (with {@link #whileMapsRun}, while the job's maps run); for
 * MapReduce, a container of the job's application once its maps were set up to run (its output's
 * {@code _temporary} made, map progress 0 to 99%: at 1% a run of small maps often ended first).
 * Workers that host another application's master (a session's, beside a MapReduce job) are taken
 * last. The job must succeed. A job that ends before such a moment is run again, at most
 * {@value #TRIES} times, so that a run always shows the fault, never a job that outran it.
 */
final class FaultDuringJob {

  static final int TRIES = 3;
  /** A session's map progress when the moment does not depend on it. */
  private static final int NOT_LOOKED_AT = -2;

  /** Makes the fault to the worker; returns what it did, for the test's output. */
  interface Fault {
    String make(Host worker) throws Exception;
  }

  /**
   * The run the fault was made to: when (seconds after the job's submission; {@code faultNanos} on
   * {@link System#nanoTime}'s clock), and how it ended.
   */
  record Outcome(Host worker, String fault, long faultNanos, double faultAt, double faultDone, double ended,
                 Run.Result job) {
  }

  private final ClusterClient client;
  private final ClusterWatch watch;
  private final Engine engine;
  private boolean whileMapsRun;
  private Predicate<Host> eligible = worker -> true;

  FaultDuringJob(ClusterClient client, ClusterWatch watch, Engine engine) {
    this.client = client;
    this.watch = watch;
    this.engine = engine;
  }

  /** The fault waits for a moment when the job's maps run (a MapReduce job's always does). */
  FaultDuringJob whileMapsRun() {
    this.whileMapsRun = true;
    return this;
  }

  /** Only workers that pass {@code test} are chosen. */
  FaultDuringJob onlyOn(Predicate<Host> test) {
    this.eligible = test;
    return this;
  }

  /** Runs {@code job}, which writes {@code out}, and makes the fault to one of {@code workers} as it runs. */
  Outcome run(Callable<Run.Result> job, String out, List<Host> workers, Fault fault) throws Exception {
    for (int attempt = 1; attempt <= TRIES; attempt++) {
      long start = System.nanoTime();
      CompletableFuture<Run.Result> running = CompletableFuture.supplyAsync(() -> {
        try {
          return job.call();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      Host worker = awaitWork(out, workers, running);
      if (worker == null) {
        Run.Result outran = running.join();
        assertEquals(0, outran.exitCode(), outran.describe());
        System.out.printf("%s: the job ended in %.1f s before a fault could be made to it (try %d of %d)%n",
            engine.label, secondsSince(start), attempt, TRIES);
        client.fs("-rm", "-r", "-f", "-skipTrash", out);
        continue;
      }
      long faultNanos = System.nanoTime();
      double faultAt = secondsSince(start);
      String done = fault.make(worker);
      double faultDone = secondsSince(start);
      System.out.printf("%s: %s, %.1f s after the job's submission (done at %.1f s)%n", engine.label, done, faultAt,
          faultDone);
      Run.Result result = running.get(30, TimeUnit.MINUTES);
      double ended = secondsSince(start);
      System.out.printf("%s: the job ended %.1f s after its submission%n", engine.label, ended);
      assertEquals(0, result.exitCode(), result.describe());
      return new Outcome(worker, done, faultNanos, faultAt, faultDone, ended, result);
    }
    throw new AssertionError("in " + TRIES + " runs the " + engine.label + " job always ended before a worker "
        + "running its work could be given the fault");
  }

  /** The worker to make the fault to, once one runs the job's work; null when the job ended first. */
  private Host awaitWork(String out, List<Host> workers, CompletableFuture<?> job) throws InterruptedException {
    boolean session = engine == Engine.SESSION;
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
    while (System.nanoTime() < deadline && !job.isDone()) {
      String app = watch.runningApplication(engine.applicationType);
      int maps = app == null ? -1 : mapProgress(app, out);
      if (app != null && (maps == NOT_LOOKED_AT || (maps >= 0 && maps < 100))) {
        String amHost = watch.amHost(engine.applicationType);
        for (Host worker : othersMastersLast(workers, watch.amHosts(null))) {
          if (!worker.hostname().equals(amHost) && eligible.test(worker) && watch.runsWorkOf(worker, app, engine)) {
            System.out.printf("%s: %s runs the job's work (map progress %s)%n", engine.label, worker.name(),
                maps == NOT_LOOKED_AT ? "not looked at" : maps + "%");
            return worker;
          }
        }
      }
      Thread.sleep(session ? 50 : 500);
    }
    assertTrue(job.isDone(), "no worker other than the application master's ran the " + engine.label
        + " job's work in 15 minutes");
    return null;
  }

  /**
   * The map progress of the job writing {@code out}: for MapReduce once its setup made
   * {@code out/_temporary} (-1 before), for a session only {@link #whileMapsRun}.
   */
  private int mapProgress(String app, String out) {
    if (engine == Engine.SESSION) {
      return whileMapsRun ? watch.mapProgress(app, engine) : NOT_LOOKED_AT;
    }
    return watch.exists(out + "/_temporary") ? watch.mapProgress(app, engine) : -1;
  }

  private static List<Host> othersMastersLast(List<Host> workers, Set<String> masters) {
    List<Host> ordered = new ArrayList<>(workers);
    ordered.sort(Comparator.comparing(worker -> masters.contains(worker.hostname())));
    return ordered;
  }

  private static double secondsSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
