package io.vivace.cluster.session;

import io.vivace.cluster.rpc.Assignments;
import io.vivace.cluster.rpc.AttemptAssignment;
import io.vivace.cluster.rpc.AttemptResult;
import io.vivace.cluster.rpc.AttemptResults;
import io.vivace.cluster.rpc.AttemptStatus;
import io.vivace.cluster.rpc.ExecutorInfo;
import io.vivace.cluster.rpc.ExecutorProtocol;
import io.vivace.cluster.rpc.JobToRead;
import io.vivace.cluster.rpc.StatusBatch;
import io.vivace.counters.AttemptCounters;
import io.vivace.scheduler.Attempt;
import io.vivace.scheduler.AttemptExecutor;
import io.vivace.scheduler.FairOrder;
import io.vivace.scheduler.JobExecutor;
import io.vivace.scheduler.JobRun;
import io.vivace.scheduler.TaskInProgress;
import io.vivace.segment.SegmentCodec;
import io.vivace.shuffle.net.MapOutputLocation;
import io.vivace.submit.JobDescription;
import io.vivace.submit.Submission;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.mapreduce.JobCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The session's side of its executors: the {@link AttemptExecutor} of every job the session runs,
 * and the {@link ExecutorProtocol} its executors call. A job's task launches wait here; when an
 * executor asks for work, each of its free slots gets a launch of the job the jobs'
 * {@link FairOrder} picks, a map preferably one whose input is on the executor's host (after
 * {@code vivace.session.locality.wait.ms} any map), a reduce only once every map's output is on a
 * live executor. An executor may be given attempts beyond its free slots, one more a slot, to start
 * the moment a slot frees instead of after a round trip to the master: only attempts of a job whose
 * attempts have run shorter than {@code vivace.session.prefetch.below.ms} so far (where that round
 * trip is a large part of an attempt's time), and only while the job has more launches waiting than
 * the session has free slots (so that none waits behind another while a slot elsewhere is free).
 * A job the session takes is read back ahead of its first attempts by up to
 * {@code vivace.session.read.ahead.executors} executors with free slots, while the master reads it;
 * its launches wait up to {@link #READERS_FIRST_NANOS} for a free slot of one of these before
 * another executor takes them (which would read the job first).
 *
 * <p>What it guarantees, whatever the order in which executors ask, report and are lost: an attempt
 * is only ever recorded on an executor the session still has (one lost while its attempt was being
 * made gets none: the launch waits again); every attempt on an executor that is lost ends (lost,
 * its task runs again); every finished map's output on a lost executor is known lost to its job
 * (the map runs again if a reduce still needs it), whether the executor went before or after the
 * map's result was taken; an attempt asked to stop whose executor does not report its end within
 * the grace is given up on ({@link #giveUpOverdue}), so that a killed job always ends; an attempt
 * an executor no longer lists as its own in a later request ends lost and frees its slot
 * ({@link #notHeld}), so that an answer or a report lost on a live executor's connection never
 * holds a slot for good.
 *
 * <p>Locking: the dispatcher's monitor guards its maps and queues; it never calls a job while
 * holding it (jobs call in while holding their own lock: queueing, stopping).
 */
final class Dispatcher implements ExecutorProtocol, AttemptExecutor {

  private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);
  /**
   * How long a launch waits for a free slot of an executor that has its job read back, or is reading
   * it ahead, before any executor with a free slot takes it (and reads the job on it first).
   */
  static final long READERS_FIRST_NANOS = 100_000_000L;

  private final ExecutorService steps;
  private final long localityWaitNanos;
  private final long prefetchBelowNanos;
  private final int readAheadExecutors;
  /** The executors told to read a job ahead, by job, until it closes. */
  private final Map<String, List<Executor>> readingAhead = new HashMap<>();
  /**
   * When the earliest launch that {@link #choose} held back for a while (for the executors reading
   * its job ahead, or for a host holding its input) may go to the executor that asked (nanos; 0 when
   * none was held back): the executor's waiting call looks again then.
   */
  private long heldBackUntilNanos;
  private final Locality locality;
  private final DescribedJobs described = new DescribedJobs();
  private final Map<Integer, Executor> executors = new LinkedHashMap<>();
  private final List<RemoteJobExecutor> jobs = new ArrayList<>();
  private final FairOrder<RemoteJobExecutor> order = new FairOrder<>(job -> job.running);
  private final Map<String, Running> running = new HashMap<>();
  /**
   * Tasks an attempt of which reported success that its job has not recorded yet (one entry per
   * such attempt): no launch of theirs starts meanwhile, as it would be a twin of a finished attempt,
   * and on the same executor its output would take the place of the one the job counts.
   */
  private final List<TaskInProgress> succeeding = new ArrayList<>();
  private int nextExecutorId = 1;
  private boolean shuttingDown;

  /** An executor of the session, and what it has to hear on its next request. */
  static final class Executor {
    final int id;
    final ExecutorInfo info;
    final List<String> stops = new ArrayList<>();
    final List<String> finishedJobs = new ArrayList<>();
    final List<JobToRead> toRead = new ArrayList<>();
    int busy;
    long lastSeenNanos;
    /** Its requests for work so far: an attempt given in an earlier one was in its hands by this one. */
    long requests;

    Executor(int id, ExecutorInfo info) {
      this.id = id;
      this.info = info;
      this.lastSeenNanos = System.nanoTime();
    }

    String name() {
      return "executor " + id + " (" + info.host() + ", " + info.containerId() + ")";
    }
  }

  /** An attempt given to an executor, until the executor reports its end or is lost. */
  private static final class Running {
    final RemoteJobExecutor job;
    final Attempt attempt;
    final Executor executor;
    final RemoteAttempt handle;
    /** A reduce's map outputs, as given to it. */
    final List<MapOutputLocation> given;
    /** When it was first asked to stop (nanos), 0 if not. */
    long stopAskedNanos;
    /** Its end was recorded without the executor's word (it did not stop in the grace); its slot is still taken. */
    boolean givenUp;
    /** The executor's request whose answer gave it. */
    final long givenInRequest;
    final long givenNanos = System.nanoTime();

    Running(RemoteJobExecutor job, Attempt attempt, Executor executor, RemoteAttempt handle,
            List<MapOutputLocation> given) {
      this.job = job;
      this.attempt = attempt;
      this.executor = executor;
      this.handle = handle;
      this.given = given;
      this.givenInRequest = executor.requests;
    }
  }

  /** A launch chosen for a slot, to be made an attempt outside the dispatcher's lock. */
  private record Chosen(RemoteJobExecutor job, RemoteJobExecutor.Launch launch, JobCounter locality,
                        List<MapOutputLocation> maps) {
  }

  /** A job whose queued work has waited for a slot, since when (nanos), running nothing meanwhile. */
  record Waiting(JobRun job, long sinceNanos, int queued) {
  }

  Dispatcher(ExecutorService steps, long localityWaitMillis, long prefetchBelowMillis, int readAheadExecutors,
             Locality locality) {
    this.steps = steps;
    this.readAheadExecutors = readAheadExecutors;
    this.localityWaitNanos = localityWaitMillis * 1_000_000L;
    this.prefetchBelowNanos = prefetchBelowMillis * 1_000_000L;
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

  /**
   * The session is taking {@code job}: up to {@code vivace.session.read.ahead.executors} executors
   * with free slots (the most free first) read it back now, while the master reads it, instead of
   * on its first attempt there; its launches go to them first while they have a slot free.
   */
  synchronized void readAhead(JobToRead job) {
    if (readAheadExecutors <= 0) {
      return;
    }
    List<Executor> free = new ArrayList<>();
    for (Executor executor : executors.values()) {
      if (executor.busy < executor.info.slots()) {
        free.add(executor);
      }
    }
    free.sort((a, b) -> Integer.compare(b.info.slots() - b.busy, a.info.slots() - a.busy));
    List<Executor> told = free.subList(0, Math.min(readAheadExecutors, free.size()));
    for (Executor executor : told) {
      executor.toRead.add(job);
    }
    if (!told.isEmpty()) {
      readingAhead.put(job.jobId(), new ArrayList<>(told));
      notifyAll();
    }
  }

  /** The session did not take a job it had its executors read ahead (it was refused): they drop it. */
  synchronized void notTaken(String jobId) {
    List<Executor> told = readingAhead.remove(jobId);
    if (told == null) {
      return;
    }
    for (Executor executor : told) {
      boolean notYetTold = executor.toRead.removeIf(job -> job.jobId().equals(jobId));
      if (!notYetTold && executors.get(executor.id) == executor) {
        executor.finishedJobs.add(jobId);
      }
    }
    notifyAll();
  }

  synchronized void queue(RemoteJobExecutor job, RemoteJobExecutor.Launch launch, boolean first) {
    if (first) {
      job.queue.addFirst(launch);
    } else {
      job.queue.addLast(launch);
    }
    if (job.waitingSinceNanos == 0) {
      job.waitingSinceNanos = System.nanoTime();
    }
    notifyAll();
  }

  synchronized int drop(RemoteJobExecutor job) {
    int n = job.queue.size();
    job.queue.clear();
    job.waitingSinceNanos = 0;
    return n;
  }

  synchronized void jobClosed(RemoteJobExecutor job) {
    jobs.remove(job);
    readingAhead.remove(job.jobId());
    for (Executor executor : executors.values()) {
      executor.finishedJobs.add(job.jobId());
    }
    notifyAll();
  }

  /** Asks the attempt's executor to stop it (on its next request); the grace runs from the first ask. */
  synchronized void stop(String attemptId) {
    Running r = running.get(attemptId);
    if (r != null && r.stopAskedNanos == 0) {
      r.stopAskedNanos = Math.max(1, System.nanoTime());
      r.executor.stops.add(attemptId);
      notifyAll();
    }
  }

  /**
   * Records where a map's output is (called by the job, under its lock, when it takes the map's
   * result); false when its executor is lost already: the output is gone with it.
   */
  private synchronized boolean mapOutputAt(RemoteJobExecutor job, MapOutputLocation location, Executor holder) {
    int map = location.mapIndex();
    boolean alive = executors.get(holder.id) == holder;
    job.mapOutputs[map] = alive ? location : null;
    job.mapOutputHolders[map] = alive ? holder : null;
    return alive;
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

  /** Slots of every executor that run nothing (an executor given attempts ahead has none). */
  synchronized int freeSlots() {
    int n = 0;
    for (Executor executor : executors.values()) {
      n += Math.max(0, executor.info.slots() - executor.busy);
    }
    return n;
  }

  /** Each executor's name and how many of its slots run an attempt ({@code ...: 1 of 4 slots busy}). */
  synchronized List<String> executorLoads() {
    List<String> loads = new ArrayList<>();
    for (Executor executor : executors.values()) {
      loads.add(executor.name() + ": " + executor.busy + " of " + executor.info.slots() + " slots busy");
    }
    return loads;
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

  /** Jobs with work queued that have run nothing for longer than {@code afterNanos}. */
  synchronized List<Waiting> waitingJobs(long now, long afterNanos) {
    List<Waiting> waiting = new ArrayList<>();
    for (RemoteJobExecutor job : jobs) {
      if (!job.queue.isEmpty() && job.running == 0 && job.waitingSinceNanos != 0
          && now - job.waitingSinceNanos > afterNanos) {
        waiting.add(new Waiting(job.job, job.waitingSinceNanos, job.queue.size()));
      }
    }
    return waiting;
  }

  /** The jobs the session runs (their executors' side). */
  synchronized List<JobRun> jobRuns() {
    List<JobRun> runs = new ArrayList<>();
    for (RemoteJobExecutor job : jobs) {
      runs.add(job.job);
    }
    return runs;
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
    LOG.info("Executor " + executor.id + " joined: " + executor.name() + ", " + info.slots() + " slots, shuffle port "
        + info.shufflePort());
    notifyAll();
    return executor.id;
  }

  @Override
  public Assignments nextWork(int executorId, long waitMillis, StatusBatch statuses) throws IOException {
    long deadline = System.nanoTime() + waitMillis * 1_000_000L;
    List<Running> notHeld;
    Executor asking;
    synchronized (this) {
      asking = known(executorId);
      asking.lastSeenNanos = System.nanoTime();
      asking.requests++;
      update(statuses);
      notHeld = notHeld(asking, statuses);
      notifyAll();
    }
    endNotHeld(asking, notHeld);
    while (true) {
      List<Chosen> chosen;
      Executor executor;
      List<String> stops;
      List<String> finished;
      List<JobToRead> toRead;
      boolean shutdown;
      synchronized (this) {
        executor = known(executorId); // lost while this call waited: it gets nothing
        chosen = choose(executor);
        stops = drain(executor.stops);
        finished = drain(executor.finishedJobs);
        toRead = drain(executor.toRead);
        shutdown = shuttingDown;
        if (chosen.isEmpty() && stops.isEmpty() && finished.isEmpty() && toRead.isEmpty() && !shutdown) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            executor.lastSeenNanos = System.nanoTime();
            return new Assignments();
          }
          if (heldBackUntilNanos != 0) {
            left = Math.min(left, heldBackUntilNanos - System.nanoTime());
          }
          try {
            wait(Math.max(1, left / 1_000_000L));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for work");
          }
          continue;
        }
      }
      List<AttemptAssignment> attempts = start(executor, chosen);
      if (attempts.isEmpty() && stops.isEmpty() && finished.isEmpty() && toRead.isEmpty() && !shutdown
          && System.nanoTime() < deadline) {
        continue; // every launch chosen was dropped (its job ended) or waits again
      }
      synchronized (this) {
        known(executorId); // lost while its attempts were being made: its call ends as a lost one's does
        executor.lastSeenNanos = System.nanoTime();
      }
      return new Assignments(attempts, stops, finished, toRead, shutdown);
    }
  }

  /** The descriptions of the jobs submitted by description, which the executors read. */
  DescribedJobs described() {
    return described;
  }

  @Override
  public JobDescription describedJob(int executorId, String jobId) throws IOException {
    synchronized (this) {
      known(executorId);
    }
    return described.of(jobId);
  }

  /**
   * Takes each end in turn; when one cannot be taken, the others still are, and the first failure is
   * thrown after them.
   */
  @Override
  public void attemptsDone(int executorId, AttemptResults results) throws IOException {
    IOException first = null;
    for (AttemptResult result : results.results()) {
      try {
        attemptDone(executorId, result);
      } catch (IOException e) {
        if (first == null) {
          first = e;
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  /** An attempt ended. */
  void attemptDone(int executorId, AttemptResult result) throws IOException {
    Running r;
    int[] lostMaps;
    synchronized (this) {
      known(executorId);
      r = running.remove(result.attemptId());
      if (r == null) {
        return; // its end was recorded already (its executor was taken for lost)
      }
      release(r.executor, r.job);
      lostMaps = result.succeeded() ? new int[0] : confirmLost(r, result.lostMaps());
      if (result.succeeded()) {
        succeeding.add(r.attempt.task());
        r.job.attemptTook(System.nanoTime() - r.givenNanos);
      }
      notifyAll();
    }
    AttemptCounters counters = AttemptCounters.from(result.counters());
    JobRun job = r.job.job;
    if (result.succeeded()) {
      Executor executor = r.executor;
      boolean[] kept = {true};
      boolean taken;
      try {
        taken = job.attemptSucceeded(r.attempt, counters, () -> {
          if (r.attempt.isMap()) {
            kept[0] = mapOutputAt(r.job, new MapOutputLocation(r.attempt.task().index(), executor.info.host(),
                executor.info.shufflePort(), r.attempt.idText()), executor);
          }
        });
      } finally {
        synchronized (this) {
          succeeding.remove(r.attempt.task());
          notifyAll();
        }
      }
      if (!taken) {
        LOG.info("The result of " + r.attempt.idText() + " on " + executor.name() + " is not needed: its job "
            + "is ending, or the attempt was given up on");
      } else if (!kept[0]) {
        LOG.warn("The output of " + r.attempt.idText() + " went with " + executor.name() + ", lost as it ended");
        job.mapOutputsLost(new int[] {r.attempt.task().index()});
      }
    } else if (result.lostMaps().length > 0) {
      if (lostMaps.length > 0) {
        job.mapOutputsLost(lostMaps);
      }
      job.attemptLost(r.attempt, counters, "could not fetch the outputs of maps "
          + Arrays.toString(result.lostMaps()) + ": " + result.diagnostics());
    } else {
      job.attemptFailed(r.attempt, counters, new RemoteFailure(result.diagnostics()));
    }
  }

  @Override
  public boolean mayCommit(int executorId, String attemptId) throws IOException {
    Running r;
    synchronized (this) {
      known(executorId);
      r = running.get(attemptId);
      if (r == null || r.executor.id != executorId || r.givenUp) {
        return false; // its end was recorded already
      }
    }
    return r.job.job.mayCommit(r.attempt);
  }

  /**
   * Of the maps a reduce could not fetch, those whose output is still where the reduce was told
   * it is (else the map ran again meanwhile, and its new output is fine): forgotten here, and to be
   * made again.
   */
  private List<Integer> confirmedLostMaps(Running r, int[] lost) {
    List<Integer> confirmed = new ArrayList<>();
    for (int map : lost) {
      MapOutputLocation given = r.given == null || map < 0 || map >= r.given.size() ? null : r.given.get(map);
      MapOutputLocation now = map >= 0 && map < r.job.mapOutputs.length ? r.job.mapOutputs[map] : null;
      if (given != null && now != null && now.attemptId().equals(given.attemptId())) {
        r.job.mapOutputs[map] = null;
        r.job.mapOutputHolders[map] = null;
        confirmed.add(map);
      }
    }
    return confirmed;
  }

  private int[] confirmLost(Running r, int[] lost) {
    return confirmedLostMaps(r, lost).stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * The executor is gone (its container ended, it stopped asking for work, or it was released):
   * its attempts are lost (they run again elsewhere), and so are the map outputs it held.
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
          if (!r.givenUp) {
            lost.add(r);
          }
        }
      }
      for (RemoteJobExecutor job : jobs) {
        for (int map = 0; map < job.mapOutputHolders.length; map++) {
          if (job.mapOutputHolders[map] == executor) {
            job.mapOutputs[map] = null;
            job.mapOutputHolders[map] = null;
            lostOutputs.computeIfAbsent(job, j -> new ArrayList<>()).add(map);
          }
        }
      }
      notifyAll();
    }
    int outputs = lostOutputs.values().stream().mapToInt(List::size).sum();
    LOG.warn("Lost " + executor.name() + ": " + reason + "; " + lost.size() + " attempts run again elsewhere, "
        + outputs + " map outputs it held are made again where reduces still need them");
    for (Map.Entry<RemoteJobExecutor, List<Integer>> e : lostOutputs.entrySet()) {
      e.getKey().job.mapOutputsLost(e.getValue().stream().mapToInt(Integer::intValue).toArray());
    }
    for (Running r : lost) {
      r.job.job.attemptLost(r.attempt, new AttemptCounters(), executor.name() + " was lost: " + reason);
    }
  }

  /**
   * Gives up on attempts asked to stop more than {@code graceNanos} ago whose executors have not
   * reported their end: each ends for its job as if it had stopped (failed, or killed when its job
   * or task was killed), so that a killed job ends whatever its executors do. Its slot stays taken
   * until its executor reports it or is lost. Returns how many it gave up on.
   */
  int giveUpOverdue(long now, long graceNanos) {
    List<Running> overdue = new ArrayList<>();
    synchronized (this) {
      for (Running r : running.values()) {
        if (r.stopAskedNanos != 0 && !r.givenUp && now - r.stopAskedNanos > graceNanos) {
          r.givenUp = true;
          overdue.add(r);
        }
      }
    }
    for (Running r : overdue) {
      String why = "task attempt " + r.attempt.idText() + " did not stop within " + graceNanos / 1_000_000
          + " ms on " + r.executor.name() + " and was given up on";
      LOG.warn(why);
      r.job.job.attemptFailed(r.attempt, new AttemptCounters(), new CancellationException(why));
    }
    return overdue.size();
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

  /** The container of an executor the session has, or null. */
  synchronized String containerOf(int executorId) {
    Executor executor = executors.get(executorId);
    return executor == null ? null : executor.info.containerId();
  }

  /**
   * Executors running nothing and holding no map output a running job may still fetch: those
   * whose containers may go back to YARN.
   */
  synchronized List<Executor> idleExecutors() {
    java.util.Set<Executor> holding = new java.util.HashSet<>();
    for (RemoteJobExecutor job : jobs) {
      holding.addAll(Arrays.asList(job.mapOutputHolders));
    }
    List<Executor> idle = new ArrayList<>();
    for (Executor executor : executors.values()) {
      if (executor.busy == 0 && !holding.contains(executor)) {
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

  /**
   * The attempts the session gave the executor in answer to its earlier requests that it no longer
   * lists as its own (its batch lists every attempt it holds until the session has its end): their
   * end never reached the session (an answer or a report lost on the way), so they are taken off the
   * executor and their slots freed, as YARN's ResourceManager does with the containers a NodeManager
   * no longer lists.
   */
  private List<Running> notHeld(Executor executor, StatusBatch statuses) {
    Set<String> held = new HashSet<>();
    for (AttemptStatus status : statuses.statuses()) {
      held.add(status.attemptId());
    }
    List<Running> gone = new ArrayList<>();
    for (Iterator<Running> it = running.values().iterator(); it.hasNext(); ) {
      Running r = it.next();
      if (r.executor == executor && r.givenInRequest < executor.requests && !held.contains(r.attempt.idText())) {
        it.remove();
        release(executor, r.job);
        gone.add(r);
      }
    }
    return gone;
  }

  /** The attempts {@link #notHeld} took off the executor end for their jobs as lost (they run again). */
  private void endNotHeld(Executor executor, List<Running> gone) {
    for (Running r : gone) {
      LOG.warn("Task attempt " + r.attempt.idText() + " was given to " + executor.name() + ", which no longer "
          + "holds it and never reported its end; its slot is freed" + (r.givenUp ? "" : " and its task runs again"));
      if (!r.givenUp) {
        r.job.job.attemptLost(r.attempt, new AttemptCounters(), executor.name() + " no longer holds it");
      }
    }
  }

  private static <T> List<T> drain(List<T> items) {
    if (items.isEmpty()) {
      return List.of();
    }
    List<T> copy = new ArrayList<>(items);
    items.clear();
    return copy;
  }

  private void release(Executor executor, RemoteJobExecutor job) {
    executor.busy--;
    job.running--;
  }

  /** Launches for the executor's free slots, taken off their queues and counted as running. */
  private List<Chosen> choose(Executor executor) {
    List<Chosen> chosen = new ArrayList<>();
    heldBackUntilNanos = 0;
    if (shuttingDown) {
      return chosen;
    }
    long now = System.nanoTime();
    int free = prefetchBelowNanos > 0 ? freeSlots() : 0;
    while (executor.busy < 2 * executor.info.slots()) {
      boolean ahead = executor.busy >= executor.info.slots();
      if (ahead && prefetchBelowNanos <= 0) {
        break;
      }
      int freeNow = free;
      Chosen next = order.pick(jobs, job -> ahead && !prefetches(job, freeNow) ? null : chooseIn(job, executor, now));
      if (next == null) {
        break;
      }
      next.job.queue.remove(next.launch);
      next.job.running++;
      next.job.waitingSinceNanos = next.job.queue.isEmpty() ? 0 : now;
      if (!ahead) {
        free--;
      }
      executor.busy++;
      chosen.add(next);
    }
    return chosen;
  }

  /** Whether the job's launches may be given ahead of a free slot, with {@code free} slots free in the session. */
  private boolean prefetches(RemoteJobExecutor job, int free) {
    return job.queue.size() > free && job.attemptsShorterThan(prefetchBelowNanos);
  }

  /**
   * The job's launch for this executor's slot: its first launch that may run there at once (a map
   * whose input is on the executor's host or nowhere, a reduce whose maps' outputs are all known),
   * else its first map that has waited {@code vivace.session.locality.wait.ms} or whose input's
   * hosts have no executor. A map past its wait thus still leaves the slot to a map near it.
   */
  private Chosen chooseIn(RemoteJobExecutor job, Executor executor, long now) {
    Chosen later = null;
    boolean readersFree = readerWithFreeSlot(job, executor);
    for (RemoteJobExecutor.Launch launch : job.queue) {
      if (runsOnHost(launch.task(), executor.info.host())) {
        continue; // a speculative attempt: never on the host where its task runs already
      }
      if (readersFree && now - launch.queuedNanos() < READERS_FIRST_NANOS) {
        holdBackUntil(launch.queuedNanos() + READERS_FIRST_NANOS);
        continue; // left, for a moment, to an executor that has the job read (or is reading it)
      }
      if (succeeding.contains(launch.task())) {
        continue; // its task's success is being recorded, which ends the launch
      }
      if (!launch.task().isMap()) {
        if (job.job.mapsDone() && job.allMapOutputsKnown()) {
          return new Chosen(job, launch, null, job.mapOutputLocations());
        }
        continue;
      }
      String[] hosts = job.submission.splits().locations(launch.task().index());
      if (hosts.length == 0) {
        return new Chosen(job, launch, null, null);
      }
      JobCounter where = locality.of(executor.info.host(), hosts);
      if (where == JobCounter.DATA_LOCAL_MAPS) {
        return new Chosen(job, launch, where, null);
      }
      if (later == null && (now - launch.queuedNanos() >= localityWaitNanos
          || !locality.anyExecutorOn(hosts, executors.values()))) {
        later = new Chosen(job, launch, where, null);
      } else if (later == null) {
        holdBackUntil(launch.queuedNanos() + localityWaitNanos); // for a slot near its input
      }
    }
    return later;
  }

  /** Notes that a launch held back may go to the asking executor from {@code nanos} on. */
  private void holdBackUntil(long nanos) {
    if (heldBackUntilNanos == 0 || nanos - heldBackUntilNanos < 0) {
      heldBackUntilNanos = nanos;
    }
  }

  /**
   * Whether an executor other than {@code executor} was told to read the job ahead, is still the
   * session's, and has a slot free: the job's launches then go to it first ({@link #READERS_FIRST_NANOS}).
   */
  private boolean readerWithFreeSlot(RemoteJobExecutor job, Executor executor) {
    List<Executor> readers = readingAhead.get(job.jobId());
    if (readers == null || readers.contains(executor)) {
      return false;
    }
    for (Executor reader : readers) {
      if (executors.get(reader.id) == reader && reader.busy < reader.info.slots()) {
        return true;
      }
    }
    return false;
  }

  /** The hosts of the input of each map waiting for a slot (none where its input is anywhere). */
  synchronized List<String[]> queuedMapHosts() {
    List<String[]> hosts = new ArrayList<>();
    for (RemoteJobExecutor job : jobs) {
      for (RemoteJobExecutor.Launch launch : job.queue) {
        if (launch.task().isMap()) {
          hosts.add(job.submission.splits().locations(launch.task().index()));
        }
      }
    }
    return hosts;
  }

  /** Whether an attempt of the task, not asked to stop, runs on an executor on {@code host}. */
  private boolean runsOnHost(TaskInProgress task, String host) {
    for (Running r : running.values()) {
      if (r.attempt.task() == task && r.stopAskedNanos == 0 && r.executor.info.host().equals(host)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Makes each chosen launch an attempt (outside the dispatcher's lock: the jobs take theirs). An
   * attempt is recorded on the executor only while the session still has it, before its job hears
   * it runs, so that a loss at any moment finds it; a launch whose executor went meanwhile waits
   * again for another.
   */
  private List<AttemptAssignment> start(Executor executor, List<Chosen> chosen) {
    List<AttemptAssignment> attempts = new ArrayList<>();
    for (Chosen c : chosen) {
      JobRun job = c.job.job;
      Attempt attempt = job.attemptStarting(c.launch.task());
      if (attempt == null) { // the job is ending: the launch is over
        synchronized (this) {
          release(executor, c.job);
          notifyAll();
        }
        continue;
      }
      RemoteAttempt handle = new RemoteAttempt(this, attempt.idText());
      boolean alive;
      synchronized (this) {
        alive = executors.get(executor.id) == executor;
        if (alive) {
          running.put(attempt.idText(), new Running(c.job, attempt, executor, handle, c.maps));
        } else {
          c.job.running--;
        }
      }
      if (!alive) {
        LOG.info("Launch of " + c.launch.task().id() + " waits again: " + executor.name() + " was lost");
        job.launchWaitsAgain(attempt);
        queue(c.job, c.launch, true);
        continue;
      }
      if (!job.attemptRunning(attempt, handle, executor.name(), c.locality)) {
        synchronized (this) {
          if (running.remove(attempt.idText()) != null) {
            release(executor, c.job); // else the executor's loss released it already
          }
          notifyAll();
        }
        continue;
      }
      attempts.add(new AttemptAssignment(job.id().toString(), c.job.submission.submitDir().toString(),
          c.job.credentials, attempt.idText(), attempt.isMap(), attempt.task().index(),
          c.maps == null ? List.of() : c.maps));
    }
    if (!attempts.isEmpty()) {
      LOG.info("Gave " + executor.name() + " " + attempts.size() + " attempts: "
          + attempts.stream().map(AttemptAssignment::attemptId).toList());
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
