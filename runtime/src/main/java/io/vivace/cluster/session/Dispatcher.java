package io.vivace.cluster.session;

import io.vivace.cluster.rpc.Assignments;
import io.vivace.cluster.rpc.AttemptAssignment;
import io.vivace.cluster.rpc.AttemptResult;
import io.vivace.cluster.rpc.AttemptStatus;
import io.vivace.cluster.rpc.ExecutorInfo;
import io.vivace.cluster.rpc.ExecutorProtocol;
import io.vivace.cluster.rpc.StatusBatch;
import io.vivace.counters.AttemptCounters;
import io.vivace.scheduler.Attempt;
import io.vivace.scheduler.AttemptExecutor;
import io.vivace.scheduler.JobExecutor;
import io.vivace.scheduler.JobRun;
import io.vivace.segment.SegmentCodec;
import io.vivace.shuffle.net.MapOutputLocation;
import io.vivace.submit.Submission;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.mapreduce.JobCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The session's side of its executors: the {@link AttemptExecutor} of every job the session runs,
 * and the {@link ExecutorProtocol} its executors call. A job's task launches wait here; when an
 * executor asks for work, each of its free slots gets a launch of the job running the fewest
 * attempts, a map preferably one whose input is on the executor's host (after
 * {@code vivace.session.locality.wait.ms} any map), a reduce only once every map's output is there.
 *
 * <p>Locking: the dispatcher's monitor guards its maps and queues; it never calls a job while
 * holding it (jobs call in while holding their own lock: queueing, stopping, publishing a map's
 * location).
 */
final class Dispatcher implements ExecutorProtocol, AttemptExecutor {

  private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

  private final ExecutorService steps;
  private final long localityWaitNanos;
  private final Locality locality;
  private final Map<Integer, Executor> executors = new LinkedHashMap<>();
  private final List<RemoteJobExecutor> jobs = new ArrayList<>();
  private final Map<String, Running> running = new HashMap<>();
  private int nextExecutorId = 1;
  private boolean shuttingDown;

  /** An executor of the session, and what it has to hear on its next request. */
  static final class Executor {
    final int id;
    final ExecutorInfo info;
    final List<String> stops = new ArrayList<>();
    final List<String> finishedJobs = new ArrayList<>();
    int busy;
    long lastSeenNanos;

    Executor(int id, ExecutorInfo info) {
      this.id = id;
      this.info = info;
      this.lastSeenNanos = System.nanoTime();
    }

    String name() {
      return "executor " + id + " (" + info.host() + ", " + info.containerId() + ")";
    }
  }

  /** An attempt given to an executor. */
  private record Running(RemoteJobExecutor job, Attempt attempt, Executor executor, RemoteAttempt handle) {
  }

  /** A launch chosen for a slot, to be made an attempt outside the dispatcher's lock. */
  private record Chosen(RemoteJobExecutor job, RemoteJobExecutor.Launch launch, JobCounter locality) {
  }

  Dispatcher(ExecutorService steps, long localityWaitMillis, Locality locality) {
    this.steps = steps;
    this.localityWaitNanos = localityWaitMillis * 1_000_000L;
    this.locality = locality;
  }

  // ---- the jobs' side ---------------------------------------------------------------------

  @Override
  public synchronized JobExecutor forJob(JobRun job, Submission submission, SegmentCodec mapOutputCodec) {
    RemoteJobExecutor executor = new RemoteJobExecutor(this, steps, job, submission,
        submission.ugi().getCredentials());
    jobs.add(executor);
    return executor;
  }

  synchronized void queue(RemoteJobExecutor job, RemoteJobExecutor.Launch launch, boolean first) {
    if (first) {
      job.queue.addFirst(launch);
    } else {
      job.queue.addLast(launch);
    }
    notifyAll();
  }

  synchronized int drop(RemoteJobExecutor job) {
    int n = job.queue.size();
    job.queue.clear();
    return n;
  }

  synchronized void jobClosed(RemoteJobExecutor job) {
    jobs.remove(job);
    for (Executor executor : executors.values()) {
      executor.finishedJobs.add(job.jobId());
    }
    notifyAll();
  }

  synchronized void stop(String attemptId) {
    Running r = running.get(attemptId);
    if (r != null) {
      r.executor.stops.add(attemptId);
      notifyAll();
    }
  }

  /** Records where a map's output is (called by the job, under its lock, when it takes the map's result). */
  synchronized void mapOutputAt(RemoteJobExecutor job, MapOutputLocation location) {
    job.mapOutputs[location.mapIndex()] = location;
  }

  synchronized int executorCount() {
    return executors.size();
  }

  /**
   * Attempts given to executors whose end the session has not heard yet (maps when {@code maps},
   * else reduces): the slots they take, whatever their jobs (killed ones included) think.
   */
  synchronized int runningAttempts(boolean maps) {
    int n = 0;
    for (Running r : running.values()) {
      if (r.attempt.isMap() == maps) {
        n++;
      }
    }
    return n;
  }

  /** Slots of every executor. */
  synchronized int slots() {
    int n = 0;
    for (Executor executor : executors.values()) {
      n += executor.info.slots();
    }
    return n;
  }

  synchronized List<String> executorNames() {
    List<String> names = new ArrayList<>();
    for (Executor executor : executors.values()) {
      names.add(executor.name());
    }
    return names;
  }

  synchronized int queuedLaunches() {
    int n = 0;
    for (RemoteJobExecutor job : jobs) {
      n += job.queue.size();
    }
    return n;
  }

  synchronized void shutDown() {
    shuttingDown = true;
    notifyAll();
  }

  // ---- the executors' side ----------------------------------------------------------------

  @Override
  public synchronized int register(ExecutorInfo info) {
    Executor executor = new Executor(nextExecutorId++, info);
    executors.put(executor.id, executor);
    LOG.info("Registered " + executor.name() + " with " + info.slots() + " slots, shuffle port "
        + info.shufflePort());
    notifyAll();
    return executor.id;
  }

  @Override
  public Assignments nextWork(int executorId, long waitMillis, StatusBatch statuses) throws IOException {
    long deadline = System.nanoTime() + waitMillis * 1_000_000L;
    while (true) {
      List<Chosen> chosen;
      Executor executor;
      List<String> stops;
      List<String> finished;
      boolean shutdown;
      synchronized (this) {
        executor = known(executorId);
        executor.lastSeenNanos = System.nanoTime();
        update(statuses);
        statuses = new StatusBatch();
        chosen = choose(executor);
        stops = drain(executor.stops);
        finished = drain(executor.finishedJobs);
        shutdown = shuttingDown;
        if (chosen.isEmpty() && stops.isEmpty() && finished.isEmpty() && !shutdown) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            return new Assignments();
          }
          try {
            wait(Math.max(1, left / 1_000_000L));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while waiting for work");
          }
          continue;
        }
      }
      List<AttemptAssignment> attempts = start(executor, chosen);
      return new Assignments(attempts, stops, finished, shutdown);
    }
  }

  @Override
  public void attemptDone(int executorId, AttemptResult result) throws IOException {
    Running r;
    synchronized (this) {
      Executor executor = known(executorId);
      r = running.remove(result.attemptId());
      if (r == null) {
        return; // its end was recorded already (its executor was taken for lost)
      }
      executor.busy--;
      r.job.running--;
      notifyAll();
    }
    AttemptCounters counters = AttemptCounters.from(result.counters());
    if (result.succeeded()) {
      Executor executor = r.executor;
      boolean taken = r.job.job.attemptSucceeded(r.attempt, counters, () -> {
        if (r.attempt.isMap()) {
          mapOutputAt(r.job, new MapOutputLocation(r.attempt.task().index(), executor.info.host(),
              executor.info.shufflePort(), r.attempt.idText()));
        }
      });
      if (!taken) {
        LOG.debug("result of " + r.attempt.idText() + " not taken");
      }
    } else if (result.lostMaps().length > 0) {
      r.job.job.mapOutputsLost(result.lostMaps());
      r.job.job.attemptLost(r.attempt, counters, "could not fetch the outputs of maps "
          + java.util.Arrays.toString(result.lostMaps()) + ": " + result.diagnostics());
    } else {
      r.job.job.attemptFailed(r.attempt, counters, new RemoteFailure(result.diagnostics()));
    }
  }

  /**
   * The executor is gone (its container ended, or it stopped asking for work): its attempts are
   * lost (they run again elsewhere), and so are the map outputs it held that reduces still need.
   */
  void executorLost(int executorId, String reason) {
    List<Running> lost = new ArrayList<>();
    Map<RemoteJobExecutor, List<Integer>> lostOutputs = new LinkedHashMap<>();
    Executor executor;
    synchronized (this) {
      executor = executors.remove(executorId);
      if (executor == null) {
        return;
      }
      for (Iterator<Running> it = running.values().iterator(); it.hasNext(); ) {
        Running r = it.next();
        if (r.executor == executor) {
          it.remove();
          r.job.running--;
          lost.add(r);
        }
      }
      for (RemoteJobExecutor job : jobs) {
        for (MapOutputLocation location : job.mapOutputs) {
          if (location != null && location.host().equals(executor.info.host())
              && location.port() == executor.info.shufflePort()) {
            job.mapOutputs[location.mapIndex()] = null;
            lostOutputs.computeIfAbsent(job, j -> new ArrayList<>()).add(location.mapIndex());
          }
        }
      }
      notifyAll();
    }
    LOG.warn("Lost " + executor.name() + ": " + reason + "; " + lost.size() + " attempts run again elsewhere");
    for (Map.Entry<RemoteJobExecutor, List<Integer>> e : lostOutputs.entrySet()) {
      e.getKey().job.mapOutputsLost(e.getValue().stream().mapToInt(Integer::intValue).toArray());
    }
    for (Running r : lost) {
      r.job.job.attemptLost(r.attempt, new AttemptCounters(), executor.name() + " was lost: " + reason);
    }
  }

  /** Executors that have not asked for work for longer than {@code silenceNanos}. */
  synchronized List<Integer> silentExecutors(long now, long silenceNanos) {
    List<Integer> silent = new ArrayList<>();
    for (Executor executor : executors.values()) {
      if (now - executor.lastSeenNanos > silenceNanos) {
        silent.add(executor.id);
      }
    }
    return silent;
  }

  /** The executor of a container, if one registered from it. */
  synchronized Integer executorOf(String containerId) {
    for (Executor executor : executors.values()) {
      if (executor.info.containerId().equals(containerId)) {
        return executor.id;
      }
    }
    return null;
  }

  /** Ids of executors running nothing, for releasing idle containers. */
  synchronized List<Executor> idleExecutors() {
    List<Executor> idle = new ArrayList<>();
    for (Executor executor : executors.values()) {
      if (executor.busy == 0) {
        idle.add(executor);
      }
    }
    return idle;
  }

  private Executor known(int executorId) throws IOException {
    Executor executor = executors.get(executorId);
    if (executor == null) {
      throw new IOException("unknown executor " + executorId + " (lost, or of another session)");
    }
    return executor;
  }

  private void update(StatusBatch statuses) {
    for (AttemptStatus status : statuses.statuses()) {
      Running r = running.get(status.attemptId());
      if (r != null) {
        r.handle.update(status);
      }
    }
  }

  private static List<String> drain(List<String> items) {
    if (items.isEmpty()) {
      return List.of();
    }
    List<String> copy = new ArrayList<>(items);
    items.clear();
    return copy;
  }

  /** Launches for the executor's free slots, taken off their queues and counted as running. */
  private List<Chosen> choose(Executor executor) {
    List<Chosen> chosen = new ArrayList<>();
    if (shuttingDown) {
      return chosen;
    }
    long now = System.nanoTime();
    while (executor.busy < executor.info.slots()) {
      Chosen next = null;
      List<RemoteJobExecutor> byLoad = new ArrayList<>(jobs);
      byLoad.sort(Comparator.comparingInt(j -> j.running));
      for (RemoteJobExecutor job : byLoad) {
        next = chooseIn(job, executor, now);
        if (next != null) {
          break;
        }
      }
      if (next == null) {
        break;
      }
      next.job.queue.remove(next.launch);
      next.job.running++;
      executor.busy++;
      chosen.add(next);
    }
    return chosen;
  }

  /** The job's launch for this executor's slot: its first map near the executor, else one that waited enough. */
  private Chosen chooseIn(RemoteJobExecutor job, Executor executor, long now) {
    for (RemoteJobExecutor.Launch launch : job.queue) {
      if (!launch.task().isMap()) {
        if (job.job.mapsDone()) {
          return new Chosen(job, launch, null);
        }
        continue;
      }
      String[] hosts = job.submission.splits().locations(launch.task().index());
      JobCounter where = locality.of(executor.info.host(), hosts);
      if (where == JobCounter.DATA_LOCAL_MAPS || hosts.length == 0
          || now - launch.queuedNanos() >= localityWaitNanos || !locality.anyExecutorOn(hosts, executors.values())) {
        return new Chosen(job, launch, hosts.length == 0 ? null : where);
      }
    }
    return null;
  }

  /** Makes each chosen launch an attempt (outside the dispatcher's lock: the jobs take theirs). */
  private List<AttemptAssignment> start(Executor executor, List<Chosen> chosen) {
    List<AttemptAssignment> attempts = new ArrayList<>();
    for (Chosen c : chosen) {
      JobRun job = c.job.job;
      Attempt attempt = job.attemptStarting(c.launch.task());
      RemoteAttempt handle = attempt == null ? null : new RemoteAttempt(this, attempt.idText());
      boolean runs = false;
      if (attempt != null) {
        synchronized (this) {
          running.put(attempt.idText(), new Running(c.job, attempt, executor, handle));
        }
        runs = job.attemptRunning(attempt, handle, executor.name(), c.locality);
      }
      if (!runs) {
        synchronized (this) {
          if (attempt != null) {
            running.remove(attempt.idText());
          }
          executor.busy--;
          c.job.running--;
        }
        continue;
      }
      List<MapOutputLocation> maps;
      synchronized (this) {
        maps = attempt.isMap() ? List.of() : c.job.mapOutputLocations();
      }
      attempts.add(new AttemptAssignment(job.id().toString(), c.job.submission.submitDir().toString(),
          c.job.credentials, attempt.idText(), attempt.isMap(), attempt.task().index(), maps));
    }
    return attempts;
  }

  @Override
  public long getProtocolVersion(String protocol, long clientVersion) {
    return versionID;
  }

  @Override
  public ProtocolSignature getProtocolSignature(String protocol, long clientVersion, int clientMethodsHash) {
    return ProtocolSignature.getProtocolSignature(clientMethodsHash, versionID, ExecutorProtocol.class);
  }
}
