package io.vivace.driver.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.vivace.cluster.client.SessionClient;
import io.vivace.cluster.security.SessionAccess;
import io.vivace.cluster.security.SessionAccessException;
import io.vivace.cluster.security.SessionSecret;
import io.vivace.cluster.security.SessionSecretStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.terasort.TeraGen;
import org.apache.hadoop.examples.terasort.TeraInputFormat;
import org.apache.hadoop.examples.terasort.TeraSort;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.ClusterMetrics;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskTrackerInfo;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.util.ToolRunner;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A Vivace session on YARN + HDFS (Apache's mini-clusters) when things go wrong: clients at once, a
 * client without the session's secret, an executor's container killed in the middle of a terasort,
 * a job killed from its client, the session's application master killed. Real processes are killed
 * ({@link ContainerProcesses}); a job is kept in the middle of its maps by holding one read of its
 * input in the DataNodes ({@link BlockReadGate}).
 *
 * <p>The session has one executor of two slots, so that what the executor held (finished maps'
 * outputs, a running attempt) and the slots a killed job took can be told. Its master is killed by
 * the last test.
 */
@Tag("minicluster")
@Tag("slow")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(SharedCluster.class)
class SessionFailuresTest {

  private static final long ROWS = 30_000;
  private static final Path INPUT = new Path("/failures/rows");
  private static final Path REFERENCE = new Path("/failures/sorted");
  private static final Pattern CONTAINER = Pattern.compile("container_[0-9e_]+");

  private static final String SESSION = "failures";
  private static ClusterFixture cluster;
  private static FileSystem fs;
  /** An input file whose read the terasort's client does not make (it samples only the first split). */
  private static Path unsampledInput;

  @BeforeAll
  static void startClusterAndSortOnce() throws Exception {
    cluster = SharedCluster.cluster();
    fs = FileSystem.get(conf());
    assertEquals(0, ToolRunner.run(conf(), new TeraGen(), new String[] {"-D", "mapreduce.job.maps=3",
        Long.toString(ROWS), INPUT.toString()}), "teragen");
    unsampledInput = lastSplitOf(INPUT);
    assertEquals(0, terasort(conf(), REFERENCE), "the terasort without failures");
    Outputs.assertCommitted(fs, REFERENCE, "the terasort without failures");
  }

  @AfterAll
  static void stopTheSession() throws IOException {
    SessionClient.stop(conf(), SESSION); // its master is killed by the last test, unless that one failed
  }

  /** A client configuration of the class's session: one executor, two slots. */
  private static Configuration conf() {
    Configuration conf = cluster.sessionConf(SESSION);
    conf.setInt("vivace.session.executors.min", 1);
    conf.setInt("vivace.session.executors.max", 1);
    conf.setInt("vivace.session.executor.slots", 2);
    return conf;
  }

  /**
   * Apache's terasort of the class's input into {@code output}, two reduces; its client samples the
   * first split only, so that the others are read by the maps alone.
   */
  private static int terasort(Configuration conf, Path output) throws Exception {
    return ToolRunner.run(conf, new TeraSort(), new String[] {"-D", "mapreduce.job.reduces=2", "-D",
        "mapreduce.terasort.num.partitions=1", INPUT.toString(), output.toString()});
  }

  private static CompletableFuture<Integer> terasortMeanwhile(Path output) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return terasort(conf(), output);
      } catch (Exception e) {
        throw new CompletionException(e);
      }
    });
  }

  private static Path lastSplitOf(Path input) throws Exception {
    Job job = Job.getInstance(conf());
    FileInputFormat.addInputPath(job, input);
    List<InputSplit> splits = new TeraInputFormat().getSplits(job);
    assertEquals(3, splits.size(), "splits of " + input);
    return ((FileSplit) splits.get(splits.size() - 1)).getPath();
  }

  private static void awaitSucceededMaps(Job job, int maps) throws Exception {
    for (int i = 0; i < 1200 && RunningJobs.succeededMaps(job) < maps; i++) {
      Thread.sleep(100);
    }
    assertEquals(maps, RunningJobs.succeededMaps(job), "maps of " + job.getJobID() + " done while one is held");
  }

  @Test
  @Order(1)
  void twoClientsSubmittingAtOnceBothGetTheirOutput() throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    List<CompletableFuture<Integer>> clients = new ArrayList<>();
    for (int c = 0; c < 2; c++) {
      Path output = new Path("/failures/client" + c);
      clients.add(CompletableFuture.supplyAsync(() -> {
        try {
          start.await();
          return terasort(conf(), output); // each client its own configuration, Cluster and connection
        } catch (Exception e) {
          throw new CompletionException(e);
        }
      }));
    }
    start.countDown();
    for (int c = 0; c < 2; c++) {
      Path output = new Path("/failures/client" + c);
      assertEquals(0, clients.get(c).get(), "client " + c + ": exit code");
      Outputs.assertCommitted(fs, output, "client " + c);
      Outputs.assertSameFiles(fs, REFERENCE, output, "client " + c + "'s terasort");
    }
  }

  /**
   * The RPC-level refusals (no secret, a wrong one, another user, a token of another session) are
   * SessionRpcSecurityTest's; here the real client of the session's owner, looking for the session
   * afresh, finds a wrong secret where the session's is kept.
   */
  @Test
  @Order(2)
  void aClientWithoutTheSessionsSecretIsRefused() throws Exception {
    ApplicationReport session = theSession();
    String id = session.getApplicationId().toString();
    SessionSecretStore store = SessionSecretStore.forCluster(conf());
    SessionAccess real = store.read(session.getUser(), id);
    store.write(new SessionAccess(id, session.getUser(), SessionSecret.generate(), "a wrong secret"));
    SessionClient.forgetSessions(); // as a client that has not found the session yet (a new JVM)
    Path output = new Path("/failures/refused");
    try {
      Exception e = failure(() -> terasort(conf(), output));
      SessionAccessException refusal = causeOf(e, SessionAccessException.class);
      assertNotNull(refusal, "the client is refused with SessionAccessException: " + e);
      assertTrue(refusal.getMessage().startsWith("not allowed to use Vivace session " + id + " of user "
          + session.getUser() + ": no valid session secret"), refusal.getMessage());
      assertTrue(refusal.getMessage().contains(store.path(session.getUser(), id).toString()),
          "the refusal names where the secret was read: " + refusal.getMessage());
    } finally {
      store.write(real); // the next test's client, refused when it checks its kept connection, looks again
    }
    Outputs.assertNothingCommitted(fs, output, "the refused client's terasort");
  }

  /**
   * The executor's container is killed while it holds two finished maps' outputs and runs the third
   * map (held reading its input): the session takes a new container, runs the three maps again and
   * the job writes what it writes without the loss.
   */
  @Test
  @Order(3)
  void anExecutorKilledInTheMiddleOfATerasortCostsOnlyItsWork() throws Exception {
    Path output = new Path("/failures/executor-lost");
    Job job;
    CompletableFuture<Integer> sort;
    Cluster session = new Cluster(conf());
    try (BlockReadGate gate = BlockReadGate.holdFirstReadOf(cluster.dfs().getFileSystem(), unsampledInput);
         AutoCloseable closing = session::close) {
      sort = terasortMeanwhile(output);
      gate.awaitReader();
      job = RunningJobs.runningJob(session);
      awaitSucceededMaps(job, 2);
      TaskTrackerInfo[] executors = session.getActiveTaskTrackers();
      assertEquals(1, executors.length, "the session's executors");
      Matcher container = CONTAINER.matcher(executors[0].getTaskTrackerName());
      assertTrue(container.find(), executors[0].getTaskTrackerName());
      ContainerProcesses.kill(ContainerProcesses.javaWith("io.vivace.cluster.executor.ExecutorMain",
          container.group()));
      gate.release();
      assertEquals(0, sort.get(5, TimeUnit.MINUTES), "terasort: exit code");
      Counters counters = session.getJob(job.getJobID()).getCounters();
      assertEquals(6, counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue(),
          "maps launched: three, then the two whose outputs were lost and the one that was running");
      assertEquals(2, counters.findCounter(JobCounter.TOTAL_LAUNCHED_REDUCES).getValue(), "reduces launched");
      assertEquals(0, counters.findCounter(JobCounter.NUM_FAILED_MAPS).getValue(),
          "a lost executor's attempts are not failures");
      TaskTrackerInfo[] now = session.getActiveTaskTrackers();
      assertEquals(1, now.length, "the session's executors after the loss");
      assertFalse(now[0].getTaskTrackerName().contains(container.group()), "a new executor took the lost one's place");
    }
    Outputs.assertCommitted(fs, output, "terasort with an executor lost");
    Outputs.assertSameFiles(fs, REFERENCE, output, "terasort with an executor lost");
  }

  /** Killed while a map is held: nothing of it in its output folder, its slots free, and the next job runs. */
  @Test
  @Order(4)
  void aJobKilledFromItsClientLeavesNothingAndFreesItsSlots() throws Exception {
    Path output = new Path("/failures/killed");
    Cluster session = new Cluster(conf());
    try (BlockReadGate gate = BlockReadGate.holdFirstReadOf(cluster.dfs().getFileSystem(), unsampledInput);
         AutoCloseable closing = session::close) {
      CompletableFuture<Integer> sort = terasortMeanwhile(output);
      gate.awaitReader();
      Job job = RunningJobs.runningJob(session);
      job.killJob();
      gate.release();
      assertEquals(1, sort.get(5, TimeUnit.MINUTES), "terasort's exit code once killed");
      assertEquals(JobStatus.State.KILLED, session.getJob(job.getJobID()).getStatus().getState(), "the job's state");
      ClusterMetrics metrics = session.getClusterStatus();
      for (int i = 0; i < 600 && metrics.getOccupiedMapSlots() + metrics.getOccupiedReduceSlots() > 0; i++) {
        Thread.sleep(100);
        metrics = session.getClusterStatus();
      }
      assertEquals(0, metrics.getOccupiedMapSlots() + metrics.getOccupiedReduceSlots(),
          "slots the executor still runs attempts in after the kill");
      assertEquals(2, metrics.getMapSlotCapacity(), "the session's slots");
    }
    Outputs.assertNothingCommitted(fs, output, "the killed terasort");
    assertFalse(fs.exists(new Path(output, "_temporary")), "the killed job's _temporary: " + Outputs.listing(fs, output));

    Path next = new Path("/failures/after-kill");
    assertEquals(0, terasort(conf(), next), "the next job's exit code");
    Outputs.assertSameFiles(fs, REFERENCE, next, "the terasort after the killed one");
  }

  /** Last: the session is gone after it. */
  @Test
  @Order(5)
  void theSessionsMasterKilledFailsTheJobClearlyAndLeavesNothing() throws Exception {
    Path output = new Path("/failures/master-lost");
    String id = theSession().getApplicationId().toString();
    Exception e;
    try (BlockReadGate gate = BlockReadGate.holdFirstReadOf(cluster.dfs().getFileSystem(), unsampledInput)) {
      CompletableFuture<Integer> sort = terasortMeanwhile(output);
      gate.awaitReader();
      ContainerProcesses.kill(ContainerProcesses.javaWith("io.vivace.cluster.session.SessionMaster", id));
      gate.release();
      e = failure(() -> sort.get(5, TimeUnit.MINUTES));
    }
    String message = e.getMessage();
    assertTrue(message.contains("the master of Vivace session " + id) && message.contains("cannot be reached"),
        "the client's error says the session's master is gone: " + e);
    Outputs.assertNothingCommitted(fs, output, "the terasort whose session died");
  }

  private static ApplicationReport theSession() throws IOException {
    List<ApplicationReport> sessions = SessionClient.list(conf()).stream()
        .filter(s -> SessionClient.sessionName(s).equals(SESSION)).toList();
    assertEquals(1, sessions.size(), "the user's sessions");
    return sessions.get(0);
  }

  private interface Call {
    Object call() throws Exception;
  }

  /** What {@code call} threw (the cause, from a future), failing when it returned. */
  private static Exception failure(Call call) {
    try {
      Object result = call.call();
      fail("expected a failure, got " + result);
      return null;
    } catch (ExecutionException | CompletionException e) {
      return e.getCause() instanceof Exception cause ? cause : e;
    } catch (Exception e) {
      return e;
    }
  }

  private static <T extends Throwable> T causeOf(Throwable e, Class<T> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }
}
