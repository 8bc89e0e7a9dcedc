package io.vivace.realcluster;

import static io.vivace.realcluster.ClusterClient.loadAverage;
import static io.vivace.realcluster.ClusterClient.timed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The faults {@link RealClusterFaultsTest} does not make, on one real cluster of its own (a master
 * and three workers, 1 Gbit/s links; the input with two replicas of each block, so that HDFS has a
 * worker to copy a lost one's blocks to): each made the same way to a terasort on a Vivace session
 * and on MapReduce on YARN, every output compared byte for byte with an undisturbed run's. A worker
 * cut off for 30 s and back (its link down, then up); a NodeManager restarted (its JVM SIGKILLed, its
 * containers living on, then {@code vivace cluster restart}); a DataNode lost while the job's maps
 * read (its JVM SIGKILLed on a worker holding replicas of the input). Then a worker lost during a
 * session's job (every process of the host SIGKILLed): HDFS copies its blocks again until each has
 * its two replicas on live workers, and the session, kept at four executors, replaces the one it
 * lost. Both engines keep their defaults (the session takes an executor for lost after 60 s of
 * silence, MapReduce a task after 600 s without progress); what each did is printed, not asserted,
 * with the machine's load. Tagged {@code faults}: the default suite leaves it out.
 */
@Tag("slow")
@Tag("faults")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RealClusterMoreFaultsTest {

  private static final int ROWS = 300_000;
  private static final String INPUT = "/faults/in";
  private static final int REPLICAS = 2;
  private static final int EXECUTORS = 4;
  private static final long CUT_MS = 30_000;
  /** The session's executors kept however idle, so that one lost is one to replace. */
  private static final List<String> SESSION_OPTIONS = List.of("-D", "vivace.session.executors.min=" + EXECUTORS);

  private final Path target = Path.of("target").toAbsolutePath();
  private final Path dir = target.resolve("real-cluster-more-faults");
  private final Path work = target.resolve("real-cluster-more-faults-work");
  private final ClusterClient client = new ClusterClient(dir, work);
  private final TeraSorts sorts = new TeraSorts(client, work, INPUT);
  private final List<Host> alive = new ArrayList<>();
  private ClusterState state;
  private ClusterFiles files;
  private ClusterWatch watch;

  @BeforeAll
  void up() throws Exception {
    System.out.println("load average at the start: " + loadAverage());
    state = client.upAfresh(3, "1gbit");
    files = new ClusterFiles(dir);
    watch = new ClusterWatch(state);
    alive.addAll(state.workers());
    timed("teragen and an undisturbed terasort", () -> {
      client.examples(Engine.MAPREDUCE.flags, "teragen", "-D", "mapreduce.job.maps=6", "-D", "dfs.replication=" + REPLICAS,
          Integer.toString(ROWS), INPUT);
      Run.Result reference = sort(Engine.MAPREDUCE, "/faults/reference");
      assertEquals(0, reference.exitCode(), reference.describe());
      sorts.keepAsReference("/faults/reference");
    });
  }

  @AfterAll
  void down() throws Exception {
    System.out.println("load average at the end: " + loadAverage());
    client.down();
  }

  @Test
  @Order(1)
  void aWorkerCutOffForThirtySecondsAndBack() throws Exception {
    for (Engine engine : Engine.values()) {
      String out = "/faults/cut-" + engine.label;
      FaultDuringJob.Outcome cut = new FaultDuringJob(client, watch, engine).run(() -> sort(engine, out), out, alive,
          worker -> {
            HostFault.link(state, worker, HostFault.DOWN);
            try {
              Thread.sleep(CUT_MS);
            } finally {
              HostFault.link(state, worker, HostFault.UP);
            }
            return "cut " + worker.name() + " off for " + CUT_MS / 1000 + " s";
          });
      check(engine, "with " + cut.worker().name() + " cut off for 30 s", cut, out);
    }
  }

  @Test
  @Order(2)
  void aNodeManagerRestartedDuringAJob() throws Exception {
    for (Engine engine : Engine.values()) {
      String out = "/faults/nm-restart-" + engine.label;
      FaultDuringJob.Outcome restarted = new FaultDuringJob(client, watch, engine).run(() -> sort(engine, out), out,
          alive, worker -> {
            // the kill without a JVM's start between the look and it; then the command a user types
            HostFault.killDaemon(files, worker, Daemon.NODEMANAGER);
            long start = System.nanoTime();
            Run.Result restart = restart(worker, Daemon.NODEMANAGER);
            return "killed the NodeManager of " + worker.name() + " (its containers live on) and started it again: "
                + restart.stdout().strip() + " in " + (System.nanoTime() - start) / 1_000_000_000 + " s";
          });
      check(engine, "with the NodeManager of " + restarted.worker().name() + " restarted", restarted, out);
    }
  }

  @Test
  @Order(3)
  void aDataNodeLostWhileTheMapsReadFromIt() throws Exception {
    Set<String> holding = holdingInput();
    for (Engine engine : Engine.values()) {
      String out = "/faults/dn-lost-" + engine.label;
      List<Host> killed = new ArrayList<>();
      try {
        FaultDuringJob.Outcome lost = new FaultDuringJob(client, watch, engine).whileMapsRun()
            .onlyOn(worker -> holding.contains(worker.address()))
            .run(() -> sort(engine, out), out, alive, worker -> {
              HostFault.killDaemon(files, worker, Daemon.DATANODE);
              killed.add(worker);
              return "killed the DataNode of " + worker.name();
            });
        check(engine, "with the DataNode of " + lost.worker().name() + " lost", lost, out);
      } finally {
        for (Host worker : killed) { // the next faults need every replica
          restart(worker, Daemon.DATANODE);
        }
      }
    }
  }

  @Test
  @Order(4)
  void aLostWorkersBlocksAreCopiedAgainAndTheSessionReplacesItsExecutor() throws Exception {
    String out = "/faults/lost-" + Engine.SESSION.label;
    Set<String> holding = holdingInput(); // a worker with blocks to copy again
    FaultDuringJob.Outcome lost = new FaultDuringJob(client, watch, Engine.SESSION)
        .onlyOn(worker -> holding.contains(worker.address()))
        .run(() -> sort(Engine.SESSION, out), out, alive, worker -> {
          int processes = HostFault.kill(state, worker);
          alive.remove(worker);
          return "killed every process of " + worker.name() + " (" + processes + ")";
        });
    long lostAt = lost.faultNanos();
    check(Engine.SESSION, "with " + lost.worker().name() + " lost", lost, out);
    String gone = lost.worker().address() + ":";

    awaitAfter(lostAt, "every block of the input with " + REPLICAS + " replicas, none on " + lost.worker().name(),
        TimeUnit.MINUTES.toMillis(10), () -> {
          List<Set<String>> blocks = watch.blockReplicas(INPUT);
          return !blocks.isEmpty() && blocks.stream().allMatch(replicas -> replicas.size() == REPLICAS
              && replicas.stream().noneMatch(r -> r.startsWith(gone)));
        });
    String session = watch.runningApplication(Engine.SESSION.applicationType);
    assertNotNull(session, "the session is gone");
    awaitAfter(lostAt, "the session with " + EXECUTORS + " executors again, none on " + lost.worker().name(),
        TimeUnit.MINUTES.toMillis(5), () -> {
          List<String> executors = watch.sessionExecutors(session);
          return executors.size() >= EXECUTORS
              && executors.stream().noneMatch(e -> ClusterWatch.isOn(lost.worker(), ClusterWatch.executorHost(e)));
        });
    System.out.println("the session's executors: " + watch.sessionExecutors(session));
  }

  // ---- helpers

  private Run.Result sort(Engine engine, String out) throws Exception {
    return sorts.run(engine, out, engine == Engine.SESSION ? SESSION_OPTIONS : List.of());
  }

  /** The addresses of the workers that hold replicas of the input. */
  private Set<String> holdingInput() {
    Set<String> holding = new TreeSet<>();
    watch.blockReplicas(INPUT).forEach(replicas -> replicas.forEach(r -> holding.add(r.substring(0, r.indexOf(':')))));
    System.out.println("workers holding replicas of the input: " + holding);
    return holding;
  }

  private Run.Result restart(Host worker, Daemon daemon) throws Exception {
    Run.Result restart = client.cluster("restart", "--dir", dir.toString(), "--host", worker.name(), "--daemon",
        daemon.command);
    assertEquals(0, restart.exitCode(), restart.describe());
    return restart;
  }

  /** The faulted job's output must be the reference's; what the engine did is printed. */
  private void check(Engine engine, String what, FaultDuringJob.Outcome outcome, String out) throws Exception {
    TeraSorts.report(engine.label + " " + what, outcome.job());
    sorts.assertSameAsReference(out);
    System.out.printf("%s %s: the fault at %.1f s (made by %.1f s), the job ended at %.1f s, output identical; "
        + "load average %s%n", engine.label, what, outcome.faultAt(), outcome.faultDone(), outcome.ended(), loadAverage());
    if (engine == Engine.SESSION) {
      String session = watch.runningApplication(engine.applicationType);
      System.out.println("the session's executors: " + (session == null ? "(no session)" : watch.sessionExecutors(session)));
    }
    client.fs("-rm", "-r", "-f", "-skipTrash", out);
  }

  /** Waits at most {@code boundMs} for {@code condition}, and prints how long after {@code sinceNanos} it held. */
  private static void awaitAfter(long sinceNanos, String what, long boundMs, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(boundMs);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + boundMs / 1000 + " s: " + what);
      }
      Thread.sleep(1_000);
    }
    System.out.printf("%s: %.1f s after the loss%n", what, (System.nanoTime() - sinceNanos) / 1e9);
  }
}
