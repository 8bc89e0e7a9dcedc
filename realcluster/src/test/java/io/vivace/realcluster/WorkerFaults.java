package io.vivace.realcluster;

import static io.vivace.realcluster.ClusterClient.timed;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Faults to the workers of a cluster of three or more ({@code up} with every block on every
 * worker), each made the same way to a TeraSort on an engine, every output compared byte for byte
 * with an undisturbed run's: a slow worker (its link shaped to a tenth of the others', speculation on
 * as both engines have it by default); a worker lost in the middle of the job (every process of the
 * host SIGKILLed: its DataNode, NodeManager and the containers they ran). What each engine did is
 * printed, not asserted: the machine is shared. The input and the undisturbed run are made on first
 * use, under {@code /faults} on the cluster's HDFS.
 */
final class WorkerFaults {

  private static final int ROWS = 150_000;
  /**
   * MapReduce on YARN's task timeout here: the session's silence timeout for an executor (Hadoop's
   * default, 600 s, would hold a lost task for ten minutes).
   */
  private static final List<String> MAPREDUCE_TIMEOUT = List.of("-D", "mapreduce.task.timeout=60000");

  private final ClusterClient client;
  private final Path dir;
  private final ClusterState state;
  private final ClusterWatch watch;
  private final TeraSorts sorts;
  private final List<Host> alive = new ArrayList<>();
  private boolean referenceMade;

  WorkerFaults(ClusterClient client, Path dir, Path work, ClusterState state) {
    this.client = client;
    this.dir = dir;
    this.state = state;
    this.watch = new ClusterWatch(state);
    this.sorts = new TeraSorts(client, work, "/faults/in");
    alive.addAll(state.workers());
  }

  /** The slowest worker's link at 100 Mbit/s while each engine sorts, then back to 1 Gbit/s. */
  void slowWorker() throws Exception {
    makeReference();
    Host slow = alive.get(alive.size() - 1);
    Run.Result shaped = client.cluster("link", "--dir", dir.toString(), "--host", slow.name(), "--to", "100mbit");
    assertEquals(0, shaped.exitCode(), shaped.describe());
    try {
      for (Engine engine : Engine.values()) {
        String out = "/faults/slow-" + engine.label;
        Run.Result sort = timed(engine.label + ": terasort with " + slow.name() + " at 100mbit",
            () -> terasort(engine, out));
        TeraSorts.report(engine.label + " with a slow worker", sort);
        sorts.assertSameAsReference(out);
      }
    } finally {
      Run.Result back = client.cluster("link", "--dir", dir.toString(), "--host", slow.name(), "--to", "1gbit");
      assertEquals(0, back.exitCode(), back.describe());
    }
  }

  /**
   * Runs a terasort on the engine and, while it runs its attempts, kills every process of a worker
   * that runs some of the job's work but not its master ({@link FaultDuringJob}); the job must
   * succeed with the undisturbed run's bytes. The worker stays lost.
   */
  void loseAWorkerDuring(Engine engine) throws Exception {
    makeReference();
    String out = "/faults/lost-" + engine.label;
    FaultDuringJob.Outcome lost = new FaultDuringJob(client, watch, engine).run(() -> terasortRun(engine, out), out,
        alive, worker -> {
          // what `vivace cluster kill` does, without a JVM's start between the look and the kill
          int processes = HostFault.kill(state, worker);
          alive.remove(worker);
          return "killed every process of " + worker.name() + " (" + processes + ")";
        });
    TeraSorts.report(engine.label + " with " + lost.worker().name() + " lost", lost.job());
    sorts.assertSameAsReference(out);
    if (engine == Engine.SESSION) {
      System.out.println("the session's containers after the loss, by worker: "
          + watch.containersByWorker(engine, alive));
    }
  }

  /** 150,000 TeraGen rows in 6 files and their TeraSort on MapReduce on YARN, once. */
  private void makeReference() throws Exception {
    if (referenceMade) {
      return;
    }
    timed("teragen and an undisturbed terasort", () -> {
      client.examples(Engine.MAPREDUCE.flags, "teragen", "-D", "mapreduce.job.maps=6", Integer.toString(ROWS),
          "/faults/in");
      terasort(Engine.MAPREDUCE, "/faults/reference");
      sorts.keepAsReference("/faults/reference");
    });
    referenceMade = true;
  }

  private Run.Result terasort(Engine engine, String out) throws Exception {
    Run.Result sort = terasortRun(engine, out);
    assertEquals(0, sort.exitCode(), sort.describe());
    return sort;
  }

  private Run.Result terasortRun(Engine engine, String out) throws Exception {
    return sorts.run(engine, out, engine == Engine.MAPREDUCE ? MAPREDUCE_TIMEOUT : List.of());
  }
}
