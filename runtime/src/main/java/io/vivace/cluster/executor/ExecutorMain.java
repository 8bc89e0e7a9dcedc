package io.vivace.cluster.executor;

import io.vivace.cluster.ContainerDirs;
import io.vivace.cluster.ContainerHost;
import io.vivace.cluster.ContainerSecurity;
import io.vivace.cluster.ContainerSpec;
import io.vivace.cluster.rpc.Assignments;
import io.vivace.cluster.rpc.AttemptAssignment;
import io.vivace.cluster.rpc.AttemptResult;
import io.vivace.cluster.rpc.AttemptStatus;
import io.vivace.cluster.rpc.ExecutorInfo;
import io.vivace.cluster.rpc.ExecutorProtocol;
import io.vivace.cluster.rpc.SessionRpc;
import io.vivace.cluster.rpc.StatusBatch;
import io.vivace.cluster.security.SessionAccess;
import io.vivace.cluster.security.SessionCredentials;
import io.vivace.cluster.security.SessionSecret;
import io.vivace.conf.VivaceConf;
import io.vivace.exec.AttemptRun;
import io.vivace.exec.AttemptThreads;
import io.vivace.exec.WorkerPool;
import io.vivace.shuffle.MapOutput;
import io.vivace.shuffle.ShuffleMemory;
import io.vivace.shuffle.net.FetchedShuffleInput;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.StringUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An executor of a Vivace session: a warm JVM in a YARN container that runs attempts of the
 * session's jobs on its worker threads ({@link WorkerPool}, {@link AttemptRun}, the same code as the
 * embedded engine's), keeps its maps' outputs and serves them to reduces on other hosts, and asks
 * the session's application master for work until it is told to stop.
 *
 * <p>Arguments: the master's address ({@code host:port}), the number of slots, the container id.
 */
public final class ExecutorMain {

  private static final Logger LOG = LoggerFactory.getLogger(ExecutorMain.class);
  /** How long a request for work waits at the master when there is none. */
  private static final long WAIT_MILLIS = 1000;
  private static final long MONITOR_INTERVAL_MILLIS = 100;

  private final ExecutorProtocol master;
  private final int id;
  private final ExecutorJobs jobs;
  private final ExecutorShuffle shuffle;
  private final WorkerPool pool;
  private final WorkerPool.JobQueue queue;
  private final AttemptThreads<AttemptAssignment> running;
  private final long graceNanos;
  private final AttemptEndReporter reporter;
  /** Reads jobs back ahead of their attempts, one at a time, off the workers. */
  private final java.util.concurrent.ExecutorService readingAhead = java.util.concurrent.Executors.newSingleThreadExecutor(
      r -> {
        Thread t = new Thread(r, "vivace-executor-read-ahead");
        t.setDaemon(true);
        return t;
      });
  /** Attempts given to this executor that wait for a worker; those asked to stop meanwhile, marked. */
  private final java.util.Map<String, Boolean> waiting = new java.util.concurrent.ConcurrentHashMap<>();
  /** Every attempt given to this executor whose end the session has not taken yet (its report returns). */
  private final java.util.Set<String> held = java.util.concurrent.ConcurrentHashMap.newKeySet();
  /** The last status of each attempt that ended here and whose end is being reported. */
  private final java.util.Map<String, AttemptStatus> ending = new java.util.concurrent.ConcurrentHashMap<>();

  private ExecutorMain(ExecutorProtocol master, int id, ExecutorJobs jobs, ExecutorShuffle shuffle, int slots,
                       long graceNanos) {
    this.master = master;
    this.id = id;
    this.jobs = jobs;
    this.shuffle = shuffle;
    this.pool = new WorkerPool(slots);
    this.queue = pool.register();
    this.running = new AttemptThreads<>(pool);
    this.graceNanos = graceNanos;
    this.reporter = new AttemptEndReporter(master, id, attemptId -> {
      held.remove(attemptId);
      ending.remove(attemptId);
    });
  }

  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    conf.addResource(new Path(new File(ContainerSpec.CONF_FILE).getAbsoluteFile().toURI()));
    ContainerDirs.useOwnFolders(conf); // never the folders of another executor on this node
    ContainerSecurity.use(conf);
    InetSocketAddress masterAddress = NetUtils.createSocketAddr(args[0]);
    int slots = Integer.parseInt(args[1]);
    String container = args[2];
    String host = ContainerHost.name();
    SessionAccess session = SessionCredentials.ofCurrentUser();
    // as the session's owner: the container's own user is not necessarily the owner
    ExecutorProtocol master = SessionRpc.proxy(ExecutorProtocol.class, masterAddress, conf, session,
        UserGroupInformation.createRemoteUser(session.owner()));
    LOG.info("Joining the session at " + masterAddress);
    try {
      serve(master, conf, container, host, slots, session.secret());
    } finally {
      SessionRpc.close(master);
    }
    System.exit(0);
  }

  /**
   * Joins the session through {@code master} as the executor of {@code container} on {@code host}
   * and runs the work it is given on this JVM's threads until the session ends (or cannot be reached).
   */
  static void serve(ExecutorProtocol master, Configuration conf, String container, String host, int slots,
                    SessionSecret secret) throws IOException, InterruptedException {
    ShuffleMemory memory = new ShuffleMemory(VivaceConf.getLong(conf, "vivace.shuffle.memory.mb") << 20);
    java.util.concurrent.atomic.AtomicInteger registeredAs = new java.util.concurrent.atomic.AtomicInteger(-1);
    ExecutorJobs jobs = new ExecutorJobs(conf, memory, jobId -> master.describedJob(registeredAs.get(), jobId));
    ExecutorShuffle shuffle = new ExecutorShuffle(conf, host, jobs, memory, secret);
    try {
      int id = master.register(new ExecutorInfo(container, host, shuffle.port(), slots));
      registeredAs.set(id);
      LOG.info("Executor " + id + ": " + slots + " slots, shuffle port " + shuffle.port() + ", " + shuffle.transport());
      new ExecutorMain(master, id, jobs, shuffle, slots,
          VivaceConf.getLong(conf, "vivace.task.kill.grace.ms") * 1_000_000L).serve();
    } finally {
      jobs.closeAll();
      shuffle.close();
    }
  }

  /** Asks for work and runs it until the master says to stop (or cannot be reached). */
  private void serve() throws InterruptedException {
    Thread monitor = new Thread(this::monitor, "vivace-executor-monitor");
    monitor.setDaemon(true);
    monitor.start();
    try {
      askAndRun();
    } finally {
      monitor.interrupt();
      readingAhead.shutdownNow();
      reporter.close();
    }
  }

  private void askAndRun() throws InterruptedException {
    while (true) {
      Assignments work;
      try {
        work = master.nextWork(id, WAIT_MILLIS, statuses());
      } catch (IOException e) {
        LOG.error("The session's master cannot be reached; the executor stops", e);
        return;
      }
      for (String attemptId : work.stops()) {
        if (waiting.replace(attemptId, Boolean.TRUE) != null) {
          continue; // it ends as soon as a worker takes it
        }
        for (AttemptThreads<AttemptAssignment>.Entry entry : running.all()) {
          if (entry.attempt().attemptId().equals(attemptId)) {
            entry.stop();
          }
        }
      }
      for (String jobId : work.finishedJobs()) {
        jobs.finished(jobId);
      }
      for (io.vivace.cluster.rpc.JobToRead job : work.jobsToRead()) {
        readingAhead.execute(() -> jobs.readAhead(job));
      }
      for (AttemptAssignment assignment : work.attempts()) {
        held.add(assignment.attemptId());
        waiting.put(assignment.attemptId(), Boolean.FALSE);
        Runnable[] unit = new Runnable[1];
        unit[0] = () -> run(assignment, unit[0]);
        pool.enqueue(queue, unit[0]);
      }
      if (work.shutdown()) {
        LOG.info("The session ends; so does the executor");
        return;
      }
    }
  }

  /** Runs one attempt on the calling worker and reports its end. */
  private void run(AttemptAssignment assignment, Runnable unit) {
    AttemptRun run;
    ExecutorJobs.Job job;
    FetchedShuffleInput fetched = null;
    long start = System.nanoTime();
    if (Boolean.TRUE.equals(waiting.get(assignment.attemptId()))) {
      waiting.remove(assignment.attemptId());
      LOG.info("Task attempt " + assignment.attemptId() + " was stopped before it started");
      report(new AttemptResult(assignment.attemptId(), false, new org.apache.hadoop.mapred.Counters(),
          "task attempt " + assignment.attemptId() + " was stopped before it started", new int[0]), null);
      return;
    }
    LOG.info("Task attempt " + assignment.attemptId() + " starts");
    try {
      job = jobs.job(assignment);
      run = new AttemptRun(job.local(), TaskAttemptID.forName(assignment.attemptId()), assignment.attemptId());
      run.commitOnlyIf(() -> master.mayCommit(id, assignment.attemptId()));
      if (!assignment.isMap()) {
        fetched = shuffle.inputFor(job, assignment, run);
        run.readShuffleFrom(fetched);
      }
    } catch (Throwable t) {
      waiting.remove(assignment.attemptId());
      report(new AttemptResult(assignment.attemptId(), false, new org.apache.hadoop.mapred.Counters(),
          "could not start the attempt on this executor: " + StringUtils.stringifyException(t), new int[0]), null);
      return;
    }
    AttemptThreads<AttemptAssignment>.Entry entry = running.add(run, assignment, unit);
    if (Boolean.TRUE.equals(waiting.remove(assignment.attemptId()))) {
      entry.stop(); // asked while the attempt was being made
    }
    try {
      MapOutput output = run.run();
      if (entry.abandoned()) {
        run.discard(output);
        return;
      }
      if (assignment.isMap() && output != null) {
        jobs.keep(job, assignment.index(), assignment.attemptId(), output);
      }
      LOG.info("Task attempt " + assignment.attemptId() + " succeeded in " + millisSince(start) + " ms");
      report(new AttemptResult(assignment.attemptId(), true, run.counters().toCounters(), "", new int[0]), run);
    } catch (Throwable t) {
      if (!entry.abandoned()) {
        LOG.info("Task attempt " + assignment.attemptId() + " failed after " + millisSince(start) + " ms: " + t);
        report(new AttemptResult(assignment.attemptId(), false, run.counters().toCounters(),
            StringUtils.stringifyException(t), ExecutorShuffle.lostMaps(t)), run);
      }
    } finally {
      running.remove(entry);
      if (fetched != null) {
        fetched.close(); // gives the budget back, deletes fetched files
      }
    }
  }

  private static long millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  /**
   * Hands the attempt's end to the reporter; the executor holds the attempt, as of its last status
   * ({@code run}'s; none for one that never ran), until the report is made.
   */
  private void report(AttemptResult result, AttemptRun run) {
    ending.put(result.attemptId(), run == null ? new AttemptStatus(result.attemptId(), 0f, "ended", 0)
        : statusOf(run));
    reporter.report(result);
  }

  private static AttemptStatus statusOf(AttemptRun run) {
    return new AttemptStatus(run.idText(), run.reporter().getProgress(), run.reporter().status(),
        run.reporter().activity());
  }

  /** Every attempt held: those running with their progress, those ended as they ended, those waiting for a worker as such. */
  private StatusBatch statuses() {
    List<AttemptStatus> statuses = new ArrayList<>();
    java.util.Set<String> listed = new java.util.HashSet<>();
    for (AttemptThreads<AttemptAssignment>.Entry entry : running.all()) {
      AttemptRun run = entry.run();
      if (held.contains(run.idText()) && !ending.containsKey(run.idText()) && listed.add(run.idText())) {
        statuses.add(statusOf(run));
      }
    }
    for (String attemptId : held) {
      AttemptStatus ended = ending.get(attemptId);
      if (listed.add(attemptId)) {
        statuses.add(ended != null ? ended : new AttemptStatus(attemptId, 0f, "waiting for a worker", 0));
      }
    }
    return new StatusBatch(statuses);
  }

  /** Gives up on attempts asked to stop that have not after the grace, and reports them failed at once. */
  private void monitor() {
    while (true) {
      try {
        Thread.sleep(MONITOR_INTERVAL_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      for (AttemptThreads<AttemptAssignment>.Entry entry : running.abandonOverdue(System.nanoTime(), graceNanos)) {
        String attemptId = entry.attempt().attemptId();
        LOG.warn("Task attempt " + attemptId + " did not stop when asked; its thread is abandoned");
        report(new AttemptResult(attemptId, false, entry.run().counters().toCounters(),
            "task attempt " + attemptId + " did not stop when asked and was abandoned", new int[0]), entry.run());
      }
    }
  }
}
