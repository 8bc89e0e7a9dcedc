package io.vivace.realcluster;

import static io.vivace.realcluster.ClusterClient.assertSameParts;
import static io.vivace.realcluster.ClusterClient.counter;
import static io.vivace.realcluster.ClusterClient.deleteTree;
import static io.vivace.realcluster.ClusterClient.get;
import static io.vivace.realcluster.ClusterClient.matches;
import static io.vivace.realcluster.ClusterClient.timed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Faults on a real cluster ({@code ./vivace cluster up}: a master and three worker hosts, each its
 * own network namespace, 1 Gbit/s links, every block on every worker), each made the same way to a
 * terasort on a Vivace session and on MapReduce on YARN, every output compared byte for byte with
 * an undisturbed run's: a slow worker (its link shaped to a tenth of the others', speculation on
 * as both engines have it by default), then a worker lost in the middle of the job (every process
 * of the host SIGKILLed: its DataNode, NodeManager and the containers they ran). What each engine
 * did (times, attempts launched and killed) is printed to the test's output, not asserted: the
 * machine is shared. Then {@code down}. Skipped where network namespaces cannot be made.
 */
@Tag("slow")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RealClusterFaultsTest {

  private static final List<String> SESSION = List.of("-D", "vivace.master=yarn");
  private static final List<String> MAPREDUCE = List.of("-D", "mapreduce.framework.name=yarn");
  private static final int ROWS = 150_000;
  /** Runs of a job that ended before a worker could be lost to it, at most. */
  private static final int TRIES = 3;
  private static final String[] COUNTERS = {"Launched map tasks", "Killed map tasks", "Failed map tasks",
      "Launched reduce tasks", "Killed reduce tasks", "Failed reduce tasks", "Data-local map tasks"};

  private final Path target = Path.of("target").toAbsolutePath();
  private final Path dir = target.resolve("real-cluster-faults");
  private final Path work = target.resolve("real-cluster-faults-work");
  private final ClusterClient client = new ClusterClient(dir, work);
  private final List<Host> alive = new ArrayList<>();
  private ClusterState state;
  private Host master;

  @BeforeAll
  void up() throws Exception {
    client.cluster("down", "--dir", dir.toString());
    deleteTree(dir);
    deleteTree(work);
    Files.createDirectories(work);
    Run.Result up = timed("up", () -> client.cluster("up", "--dir", dir.toString(), "--hosts", "3", "--link", "1gbit"));
    Assumptions.assumeFalse(up.exitCode() == ClusterCommand.NAMESPACES_UNAVAILABLE,
        () -> "network namespaces cannot be made here: " + up.stderr().strip());
    assertEquals(0, up.exitCode(), up.describe());
    state = ClusterState.load(dir.resolve("cluster.properties")).orElseThrow();
    master = state.master();
    alive.addAll(state.workers());
    timed("teragen and an undisturbed terasort", () -> {
      client.examples(MAPREDUCE, "teragen", "-D", "mapreduce.job.maps=6", Integer.toString(ROWS), "/faults/in");
      terasort(MAPREDUCE, "/faults/reference");
      // TeraSort writes its output with one replica: fetched before any worker is lost
      client.fs("-get", "/faults/reference", work.resolve("reference").toString());
    });
  }

  @AfterAll
  void down() throws Exception {
    Run.Result down = client.cluster("down", "--dir", dir.toString());
    assertEquals(0, down.exitCode(), down.describe());
  }

  @Test
  @Order(1)
  void aSlowWorkerHoldsNeitherEngineAndTheOutputsStayTheSame() throws Exception {
    Host slow = alive.get(alive.size() - 1);
    Run.Result shaped = client.cluster("link", "--dir", dir.toString(), "--host", slow.name(), "--to", "100mbit");
    assertEquals(0, shaped.exitCode(), shaped.describe());
    try {
      for (List<String> engine : List.of(SESSION, MAPREDUCE)) {
        String out = "/faults/slow-" + name(engine);
        Run.Result sort = timed(name(engine) + ": terasort with " + slow.name() + " at 100mbit",
            () -> terasort(engine, out));
        report(name(engine) + " with a slow worker", sort);
        assertSameAsReference(out);
      }
    } finally {
      Run.Result back = client.cluster("link", "--dir", dir.toString(), "--host", slow.name(), "--to", "1gbit");
      assertEquals(0, back.exitCode(), back.describe());
    }
  }

  @Test
  @Order(2)
  void aWorkerLostInTheMiddleOfASessionJobCostsOnlyItsWork() throws Exception {
    loseAWorkerDuring(SESSION, "VIVACE");
  }

  @Test
  @Order(3)
  void aWorkerLostInTheMiddleOfAMapReduceJob() throws Exception {
    loseAWorkerDuring(MAPREDUCE, "MAPREDUCE");
  }

  /**
   * Runs a terasort on the engine and, while it runs its attempts, kills every process of a worker
   * that runs some of the job's work (a session's executor with a busy slot; a container of a
   * MapReduce job whose maps run, map progress 1 to 99%) but not its master; the job must succeed
   * with the undisturbed run's bytes. A session's job of this size takes a few seconds: one that
   * ends before a loss could be made to it is run again (at most {@link #TRIES} times), so that the
   * test always shows a loss, never a job that merely outran it.
   */
  private void loseAWorkerDuring(List<String> engine, String applicationType) throws Exception {
    String out = "/faults/lost-" + name(engine);
    for (int attempt = 1; attempt <= TRIES; attempt++) {
      long start = System.nanoTime();
      CompletableFuture<Run.Result> sort = CompletableFuture.supplyAsync(() -> {
        try {
          return terasortRun(engine, out);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      Host victim = killAWorkerOf(applicationType, out, sort);
      if (victim == null) {
        Run.Result outran = sort.join();
        assertEquals(0, outran.exitCode(), outran.describe());
        System.out.printf("%s: the job ended in %.1f s before a worker could be lost (try %d of %d)%n", name(engine),
            (System.nanoTime() - start) / 1e9, attempt, TRIES);
        client.fs("-rm", "-r", "-f", "-skipTrash", out);
        continue;
      }
      System.out.printf("%s: killed every process of %s %.1f s after the job's submission%n", name(engine),
          victim.name(), (System.nanoTime() - start) / 1e9);
      Run.Result result = sort.get(30, TimeUnit.MINUTES);
      System.out.printf("%s: the job ended %.1f s after its submission%n", name(engine), (System.nanoTime() - start) / 1e9);
      assertEquals(0, result.exitCode(), result.describe());
      report(name(engine) + " with " + victim.name() + " lost", result);
      assertSameAsReference(out);
      if (applicationType.equals("VIVACE")) {
        System.out.println("the session's containers after the loss, by worker: " + containersByWorker(applicationType));
      }
      return;
    }
    throw new AssertionError("in " + TRIES + " runs the " + name(engine) + " job always ended before a worker "
        + "running its work could be lost");
  }

  /** The worker killed while it ran the job's work; null when the job ended first. */
  private Host killAWorkerOf(String applicationType, String out, CompletableFuture<Run.Result> job) throws Exception {
    boolean session = applicationType.equals("VIVACE");
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
    while (System.nanoTime() < deadline && !job.isDone()) {
      String app = runningApplication(applicationType);
      int maps = app == null || session || !exists(out + "/_temporary") ? -1 : mapProgress(app, applicationType);
      if (app != null && (session || (maps > 0 && maps < 100))) {
        String amHost = amHost(applicationType);
        for (Host worker : alive) {
          if (!worker.hostname().equals(amHost) && runsWorkOf(worker, app, applicationType)) {
            // what `vivace cluster kill` does, without a JVM's start between the look and the kill
            System.out.printf("killing %s (map progress %s): %d processes%n", worker.name(),
                session ? "not looked at" : maps + "%", HostFault.kill(state, worker));
            alive.remove(worker);
            return worker;
          }
        }
      }
      Thread.sleep(session ? 50 : 500);
    }
    assertTrue(job.isDone(), "no worker other than the application master's ran the " + applicationType
        + " job's work in 15 minutes");
    return null;
  }

  // ---- the daemons' REST APIs, from outside the hosts

  private String rm(String path) {
    return get("http://" + master.address() + ":" + master.port(Daemon.Port.RM_WEB) + path);
  }

  private String runningApps(String applicationType) {
    return rm("/ws/v1/cluster/apps?states=RUNNING&applicationTypes=" + applicationType);
  }

  private String runningApplication(String applicationType) {
    Set<String> ids = matches(Pattern.compile("\"id\"\\s*:\\s*\"(application_[0-9_]+)\""), runningApps(applicationType));
    return ids.isEmpty() ? null : ids.iterator().next();
  }

  private String amHost(String applicationType) {
    Set<String> hosts = matches(Pattern.compile("\"amHostHttpAddress\"\\s*:\\s*\"([^\":]+)"), runningApps(applicationType));
    return hosts.isEmpty() ? "" : hosts.iterator().next();
  }

  /**
   * The map progress (0 to 100) of the application's running job, as its master's web pages show
   * it through the ResourceManager's proxy (a session's page, MapReduce's REST API); -1 when unknown.
   */
  private int mapProgress(String application, String applicationType) {
    String proxy = "/proxy/" + application + "/";
    Matcher m = applicationType.equals("VIVACE")
        ? Pattern.compile("<td>RUNNING</td><td>(\\d+)%</td>").matcher(rm(proxy))
        : Pattern.compile("\"mapProgress\"\\s*:\\s*([0-9.]+)").matcher(rm(proxy + "ws/v1/mapreduce/jobs"));
    return m.find() ? (int) Double.parseDouble(m.group(1)) : -1;
  }

  /**
   * Whether the worker runs the job's work: for a session, an executor there with a busy slot (its
   * page lists each executor's); for MapReduce, a container of the job's application.
   */
  private boolean runsWorkOf(Host worker, String application, String applicationType) {
    if (!applicationType.equals("VIVACE")) {
      return runsContainerOf(worker, application);
    }
    Matcher executor = Pattern.compile("<li>executor \\d+ \\(([^,]+), [^)]+\\): (\\d+) of \\d+ slots busy</li>")
        .matcher(rm("/proxy/" + application + "/"));
    while (executor.find()) {
      String host = executor.group(1);
      if ((host.equals(worker.hostname()) || host.equals(worker.address())) && Integer.parseInt(executor.group(2)) > 0) {
        return true;
      }
    }
    return false;
  }

  private boolean runsContainerOf(Host worker, String application) {
    String containers = get("http://" + worker.address() + ":" + worker.port(Daemon.Port.NM_WEB) + "/ws/v1/node/containers");
    return containers.contains("container_" + application.substring("application_".length()) + "_");
  }

  private List<String> containersByWorker(String applicationType) {
    String app = runningApplication(applicationType);
    List<String> counts = new ArrayList<>();
    for (Host worker : alive) {
      String containers = get("http://" + worker.address() + ":" + worker.port(Daemon.Port.NM_WEB) + "/ws/v1/node/containers");
      long n = app == null ? 0 : matches(Pattern.compile("\"id\"\\s*:\\s*\"(container_"
          + app.substring("application_".length()) + "_[0-9_]+)\""), containers).size();
      counts.add(worker.name() + "=" + n);
    }
    return counts;
  }

  private boolean exists(String path) {
    return !get("http://" + master.address() + ":" + master.port(Daemon.Port.NAMENODE_HTTP) + "/webhdfs/v1" + path
        + "?op=GETFILESTATUS&user.name=" + System.getProperty("user.name")).isEmpty();
  }

  // ---- jobs

  private Run.Result terasort(List<String> engine, String out) throws Exception {
    Run.Result sort = terasortRun(engine, out);
    assertEquals(0, sort.exitCode(), sort.describe());
    return sort;
  }

  /**
   * TeraSort with 2 reduces; on MapReduce on YARN with the task timeout at 60 s, the session's
   * silence timeout for an executor (Hadoop's default, 600 s, would hold a lost task for ten minutes).
   */
  private Run.Result terasortRun(List<String> engine, String out) throws Exception {
    List<String> command = new ArrayList<>(List.of("examples", "terasort"));
    command.addAll(engine);
    if (engine == MAPREDUCE) {
      command.addAll(List.of("-D", "mapreduce.task.timeout=60000"));
    }
    command.addAll(List.of("-D", "mapreduce.job.reduces=2", "/faults/in", out));
    return client.vivace(command.toArray(new String[0]));
  }

  private void assertSameAsReference(String out) throws Exception {
    Path local = work.resolve(out.substring(out.lastIndexOf('/') + 1));
    client.fs("-get", out, local.toString());
    assertSameParts(work.resolve("reference"), local);
  }

  private static void report(String what, Run.Result job) {
    StringBuilder line = new StringBuilder(what + ":");
    for (String counter : COUNTERS) {
      line.append(' ').append(counter).append('=').append(counter(job, counter));
    }
    System.out.println(line);
  }

  private static String name(List<String> engine) {
    return engine == SESSION ? "vivace-yarn" : "mapreduce-yarn";
  }
}
