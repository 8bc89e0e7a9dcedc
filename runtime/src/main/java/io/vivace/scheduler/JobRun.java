package io.vivace.scheduler;

import io.vivace.commit.OutputCommitters;
import io.vivace.counters.AttemptCounters;
import io.vivace.counters.CounterTotals;
import io.vivace.history.JobHistoryWriter;
import io.vivace.sandbox.TaskScope;
import io.vivace.sandbox.TaskWorkDir;
import io.vivace.segment.SegmentCodec;
import io.vivace.submit.Submission;
import io.vivace.task.AttemptIdFormat;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.UndeclaredThrowableException;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.TIPStatus;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.util.StringUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler of one submitted job: a state machine driven by task completions, setup, maps,
 * reduces, commit; or, on failure or kill, stop the running attempts and abort. It decides what
 * runs; its {@link JobExecutor} decides where and runs it (threads of this JVM, or executors of a
 * session on a cluster) and reports each attempt's start and end back. The job's own steps (setup,
 * commit, abort) run through the executor too, inside the job's user identity and class loader.
 */
public final class JobRun {

  private static final Logger LOG = LoggerFactory.getLogger(JobRun.class);

  private final Submission submission;
  private final JobID id;
  private final JobConf conf;
  private final JobExecutor executor;
  private final AttemptIdFormat attemptIds;
  private final TaskInProgress[] maps;
  private final TaskInProgress[] reduces;
  private final JobHistoryWriter history;
  /** The job's own counters (launched, failed, killed tasks, task time); see {@link #jobCounters}. */
  private final org.apache.hadoop.mapred.Counters counters = new org.apache.hadoop.mapred.Counters();
  /** The successful attempts' counters, summed. */
  private final CounterTotals attemptTotals = new CounterTotals();
  private final List<TaskCompletionEvent> events = new ArrayList<>();
  /** Tasks with an attempt running: progress and kills look only at these. */
  private final java.util.Set<TaskInProgress> runningTips = new java.util.LinkedHashSet<>();
  private final int maxMapAttempts;
  private final int maxReduceAttempts;
  /** {@code mapreduce.task.timeout}: no progress for this long fails an attempt; 0 = never. */
  private final long taskTimeoutMillis;
  private final Runnable onFinish;
  /** Where the job's own steps run: the job's working directory, exits failing the step. */
  private final TaskScope jobScope;
  /** Gives slow tasks speculative attempts; null where the executor does not speculate. */
  private final Speculator speculator;
  /** The speculator's clock (nanos). */
  private java.util.function.LongSupplier clock = System::nanoTime;

  private OutputCommitter committer;
  private org.apache.hadoop.mapred.JobContextImpl jobContext;
  private JobStatus.State state = JobStatus.State.PREP;
  private boolean setupDone;
  private boolean terminating;
  /** Set once the job's commit is queued: it ends as its commit says, and attempts still running are not needed. */
  private boolean committing;
  private JobStatus.State terminalState;
  private String failureInfo = "";
  /** Work given to the executor that has not ended: launches not yet ended, steps not yet run. */
  private int inFlight;
  private boolean cleanupQueued;
  private int completedMaps;
  /** Set once every map was done the first time: reduces were launched (lost maps rerun later). */
  private boolean reducesLaunched;
  /** completedMaps == maps.length, for executors that must not take the job's lock. */
  private volatile boolean mapsDone;
  private int completedReduces;
  private final long submitTime = System.currentTimeMillis();
  private long startTime;
  private long finishTime;
  private final File historyFile;
  /** What the job's queued work waits for, when its executor says it waits long; empty otherwise. */
  private volatile String waitingFor = "";
  /** Where a client can follow the job; its history file unless {@link #trackAt} said otherwise. */
  private volatile String trackingUrl;
  /** Why the job's map output codec cannot be used; the job fails before it starts. */
  private IOException unusableCodec;

  /** A job of {@code submission}, run where {@code executors} says; {@code onFinish} runs once it ended. */
  public JobRun(Submission submission, AttemptExecutor executors, Runnable onFinish) {
    this.submission = submission;
    this.id = submission.id();
    this.conf = submission.conf();
    this.onFinish = onFinish;
    int mapCount = submission.splits().count();
    int reduceCount = conf.getNumReduceTasks();
    if (reduceCount < 0) {
      throw new IllegalArgumentException("Job " + id + " has " + MRJobConfig.NUM_REDUCES + "=" + reduceCount
          + ": a job has 0 reduces (map only) or more");
    }
    SegmentCodec mapOutputCodec = SegmentCodec.NONE;
    if (reduceCount > 0) { // a map-only job has no map output to compress (Hadoop ignores the codec)
      try {
        mapOutputCodec = SegmentCodec.forJob(conf);
      } catch (IOException e) {
        unusableCodec = e;
      }
    }
    org.apache.hadoop.mapred.JobID oldApiId = org.apache.hadoop.mapred.JobID.downgrade(id);
    this.attemptIds = new AttemptIdFormat(oldApiId);
    this.maps = new TaskInProgress[mapCount];
    for (int i = 0; i < mapCount; i++) {
      maps[i] = new TaskInProgress(new org.apache.hadoop.mapred.TaskID(oldApiId, TaskType.MAP, i), i);
    }
    this.reduces = new TaskInProgress[reduceCount];
    for (int i = 0; i < reduceCount; i++) {
      reduces[i] = new TaskInProgress(new org.apache.hadoop.mapred.TaskID(oldApiId, TaskType.REDUCE, i), i);
    }
    this.maxMapAttempts = Math.max(1, conf.getInt(MRJobConfig.MAP_MAX_ATTEMPTS, 4));
    this.maxReduceAttempts = Math.max(1, conf.getInt(MRJobConfig.REDUCE_MAX_ATTEMPTS, 4));
    this.taskTimeoutMillis = Math.max(0, conf.getLong(MRJobConfig.TASK_TIMEOUT, MRJobConfig.DEFAULT_TASK_TIMEOUT_MILLIS));
    this.historyFile = new File(JobHistoryWriter.historyDir(conf), id + ".jsonl");
    this.history = new JobHistoryWriter(historyFile);
    this.jobScope = new TaskScope("job " + id, new TaskWorkDir(submission.resources().workDir(), Map.of()), () -> { });
    this.executor = executors.forJob(this, submission, mapOutputCodec);
    Speculator.Settings speculation = Speculator.Settings.of(conf);
    this.speculator = executor.speculates() && speculation.any() ? new Speculator(speculation) : null;
  }

  /** Makes the speculator read {@code nanos} as its clock (tests drive time with it). */
  synchronized void clock(java.util.function.LongSupplier nanos) {
    this.clock = nanos;
  }

  public JobID id() {
    return id;
  }

  public Submission submission() {
    return submission;
  }

  /**
   * What the job's queued work has waited for, for long (no executor, no free slot, and why), as its
   * executor sees it; empty once it runs again. Clients see it as the job status's scheduling info.
   */
  public void waitingFor(String why) {
    this.waitingFor = why == null ? "" : why;
  }

  /** Makes {@code url} the job's tracking URL (a session's web page of the job). */
  public void trackAt(String url) {
    this.trackingUrl = url;
  }

  /** The job's history file, complete once the job has ended. */
  public File historyFile() {
    return historyFile;
  }

  public synchronized void start() {
    history.jobSubmitted(submitTime, id.toString(), conf.getJobName(), conf.getUser(), maps.length,
        reduces.length, conf);
    runStep(this::setup);
  }

  // ---- work for the executor ----------------------------------------------------------------

  /** Gives the executor a step of the job's own; it counts as in flight until it has run. */
  private void runStep(Runnable body) {
    inFlight++;
    executor.runStep(() -> {
      try {
        body.run();
      } catch (Throwable t) {
        LOG.error("Internal error in job " + id, t);
        synchronized (this) {
          terminate(JobStatus.State.FAILED, "Internal error: " + StringUtils.stringifyException(t));
        }
      } finally {
        synchronized (this) {
          inFlight--;
          maybeCleanup();
        }
      }
    });
  }

  private void launch(TaskInProgress tip, boolean first) {
    inFlight++;
    tip.queuedLaunches++;
    executor.launch(tip, first);
  }

  /** Job code of the job's own steps (setup, commit, abort), as in the application master's JVM. */
  private <T> T inJobContext(PrivilegedExceptionAction<T> action) throws Exception {
    return submission.run(conf.getClassLoader(), jobScope, action);
  }

  /** Runs a job-level step of the committer protocol; a failure fails the job. */
  private boolean jobStep(String name, PrivilegedExceptionAction<Void> step) {
    try {
      inJobContext(step);
      return true;
    } catch (Throwable t) {
      LOG.error("Job " + name + " failed for " + id, t);
      synchronized (this) {
        terminate(JobStatus.State.FAILED, "Job " + name + " failed: " + StringUtils.stringifyException(t));
      }
      return false;
    }
  }

  private void setup() {
    if (unusableCodec != null) {
      LOG.error("Job " + id + " failed: " + unusableCodec.getMessage(), unusableCodec);
      synchronized (this) {
        terminate(JobStatus.State.FAILED, unusableCodec.getMessage());
      }
      return;
    }
    boolean ok = jobStep("setup", () -> {
      jobContext = new org.apache.hadoop.mapred.JobContextImpl(conf, id);
      committer = OutputCommitters.forJob(conf, id);
      committer.setupJob(jobContext);
      return null;
    });
    if (!ok) {
      return;
    }
    synchronized (this) {
      if (terminating) {
        return;
      }
      setupDone = true;
      startTime = System.currentTimeMillis();
      state = JobStatus.State.RUNNING;
      if (maps.length == 0) {
        mapsComplete();
      }
      for (TaskInProgress tip : maps) {
        launch(tip, false);
      }
    }
  }

  private void mapsComplete() {
    reducesLaunched = true;
    mapsDone = true;
    if (reduces.length == 0) {
      startCommit();
    }
    for (TaskInProgress tip : reduces) {
      launch(tip, false);
    }
  }

  // ---- what the executor reports ------------------------------------------------------------

  /**
   * A launch of {@code tip} is about to run: its attempt, numbered; null when the job is ending, and
   * the launch is over.
   */
  public synchronized Attempt attemptStarting(TaskInProgress tip) {
    tip.queuedLaunches = Math.max(0, tip.queuedLaunches - 1);
    if (terminating || tip.status == TIPStatus.COMPLETE) { // ending, or a speculative launch whose task is done
      inFlight--;
      maybeCleanup();
      return null;
    }
    org.apache.hadoop.mapred.TaskAttemptID attemptId = new org.apache.hadoop.mapred.TaskAttemptID(tip.id, tip.attempts++);
    return new Attempt(tip, attemptId, attemptIds.format(attemptId), System.currentTimeMillis());
  }

  /**
   * The attempt {@link #attemptStarting} made never ran (the executor it was made for was lost
   * meanwhile) and its launch waits again for a slot: the task counts it queued, so that no other
   * end of the task launches it a second time.
   */
  public synchronized void launchWaitsAgain(Attempt attempt) {
    attempt.ended = true;
    attempt.task().queuedLaunches++;
  }

  /**
   * The attempt runs, in {@code slot} (a worker thread's name, or an executor's); false when the job
   * is ending, and the executor is to drop it and call nothing more for it.
   */
  public boolean attemptRunning(Attempt attempt, AttemptHandle handle, String slot) {
    return attemptRunning(attempt, handle, slot, null);
  }

  /**
   * {@link #attemptRunning(Attempt, AttemptHandle, String)} for a map placed by its input's
   * locality: {@code locality} is the job counter it adds to ({@code DATA_LOCAL_MAPS},
   * {@code RACK_LOCAL_MAPS} or {@code OTHER_LOCAL_MAPS}), or null.
   */
  public boolean attemptRunning(Attempt attempt, AttemptHandle handle, String slot, JobCounter locality) {
    TaskInProgress tip = attempt.task();
    synchronized (this) {
      if (attempt.ended) {
        return false; // lost with its executor before it ran; its end was recorded and its task runs again
      }
      if (terminating) {
        attempt.ended = true;
        inFlight--;
        maybeCleanup();
        return false;
      }
      attempt.handle = handle;
      attempt.activityChangedNanos = System.nanoTime();
      attempt.runningSinceNanos = clock.getAsLong();
      tip.running.add(attempt);
      runningTips.add(tip);
      tip.status = TIPStatus.RUNNING;
      if (tip.startTime == 0) {
        tip.startTime = attempt.startTime();
      }
      counters.findCounter(attempt.isMap() ? JobCounter.TOTAL_LAUNCHED_MAPS : JobCounter.TOTAL_LAUNCHED_REDUCES)
          .increment(1);
      if (locality != null) {
        counters.findCounter(locality).increment(1);
      }
    }
    // outside the job's lock: JOB_FINISHED cannot come before it, as the job ends only after the attempt
    history.attemptStarted(attempt.startTime(), attempt.idText(), attempt.isMap() ? "MAP" : "REDUCE", slot);
    return true;
  }

  /**
   * The attempt succeeded. When the job takes its result, {@code accept} runs under the job's lock
   * (a map's output is published, a reduce's partition released) and this returns true; when it does
   * not (the job is ending, or the attempt was given up on), the executor drops the result.
   */
  public synchronized boolean attemptSucceeded(Attempt attempt, AttemptCounters attemptCounters, Runnable accept) {
    TaskInProgress tip = attempt.task();
    boolean isMap = attempt.isMap();
    long now = System.currentTimeMillis();
    if (!end(attempt)) {
      return false;
    }
    if (terminating || committing || tip.status == TIPStatus.COMPLETE) { // or its twin won
      recordAttemptEnd(attempt, attemptCounters, "KILLED", now, null);
      countKilled(isMap);
      maybeCleanup();
      return false;
    }
    if (speculator != null) {
      speculator.succeeded(tip, attempt, clock.getAsLong());
    }
    for (Attempt twin : new ArrayList<>(tip.running)) {
      LOG.info("Task attempt " + attempt.idText() + " succeeded first; " + twin.idText() + " is killed");
      twin.killRequested = true;
      stop(twin);
    }
    tip.status = TIPStatus.COMPLETE;
    tip.finishTime = now;
    tip.counters = attemptCounters;
    attemptTotals.add(attemptCounters);
    counters.findCounter(isMap ? JobCounter.MILLIS_MAPS : JobCounter.MILLIS_REDUCES)
        .increment(now - attempt.startTime());
    events.add(new TaskCompletionEvent(events.size(), attempt.id(), tip.index, isMap,
        TaskCompletionEvent.Status.SUCCEEDED, ""));
    recordAttemptEnd(attempt, attemptCounters, "SUCCEEDED", now, null);
    accept.run();
    if (isMap) {
      mapsDone = ++completedMaps == maps.length;
      if (mapsDone && !reducesLaunched) {
        mapsComplete();
      }
    } else if (++completedReduces == reduces.length) {
      startCommit();
    }
    return true;
  }

  /** The attempt failed with {@code cause}, or was killed (the job's kill, a task kill). */
  public synchronized void attemptFailed(Attempt attempt, AttemptCounters attemptCounters, Throwable cause) {
    TaskInProgress tip = attempt.task();
    boolean isMap = attempt.isMap();
    long now = System.currentTimeMillis();
    if (!end(attempt)) {
      return;
    }
    if (attempt.timeoutMessage != null) {
      cause = new java.util.concurrent.TimeoutException(attempt.timeoutMessage);
    }
    boolean lostRace = tip.status == TIPStatus.COMPLETE; // a twin succeeded first
    boolean killed = lostRace
        || ((terminating || committing || attempt.killRequested) && attempt.timeoutMessage == null);
    String diagnostic = StringUtils.stringifyException(cause);
    tip.diagnostics.add(diagnostic);
    tip.attemptDiagnostics.put(attempt.id().getId(), diagnostic);
    events.add(new TaskCompletionEvent(events.size(), attempt.id(), tip.index, isMap,
        killed ? TaskCompletionEvent.Status.KILLED : TaskCompletionEvent.Status.FAILED, ""));
    recordAttemptEnd(attempt, attemptCounters, killed ? "KILLED" : "FAILED", now, diagnostic);
    if (killed) {
      countKilled(isMap);
    }
    if (terminating || committing || lostRace) {
      maybeCleanup();
      return;
    }
    if (!killed) {
      tip.failures++;
      counters.findCounter(isMap ? JobCounter.NUM_FAILED_MAPS : JobCounter.NUM_FAILED_REDUCES).increment(1);
      LOG.warn("Task attempt " + attempt.idText() + " failed (" + tip.failures + " of "
          + (isMap ? maxMapAttempts : maxReduceAttempts) + " attempts): " + cause);
    }
    if (tip.failures < (isMap ? maxMapAttempts : maxReduceAttempts)) {
      if (!tip.running.isEmpty() || tip.queuedLaunches > 0) {
        return; // its other attempt goes on
      }
      if (killed) {
        LOG.info("Task attempt " + attempt.idText() + " was killed (" + firstLine(cause) + "); " + tip.id
            + " runs again");
      }
      tip.status = TIPStatus.PENDING;
      launch(tip, true);
      return;
    }
    tip.status = TIPStatus.FAILED;
    tip.finishTime = now;
    terminate(JobStatus.State.FAILED, "Task failed " + tip.id + "\n"
        + "Job failed as tasks failed. failedMaps:" + (isMap ? 1 : 0) + " failedReduces:" + (isMap ? 0 : 1)
        + "\nLast attempt " + attempt.idText() + " failed with: " + firstLine(cause));
  }

  /**
   * The attempt was lost with the executor running it (its container or node gone): it counts as
   * killed, not failed, and its task runs again.
   */
  public synchronized void attemptLost(Attempt attempt, AttemptCounters attemptCounters, String reason) {
    if (!attempt.ended) {
      attempt.killRequested = true;
      attemptFailed(attempt, attemptCounters, new java.io.IOException(reason));
    }
  }

  /**
   * The outputs of these completed maps are gone (their executor was lost, or reduces could not
   * fetch them): the maps run again, and reduces wait for them ({@link #mapsDone}).
   */
  public synchronized void mapOutputsLost(int[] mapIndexes) {
    if (terminating || committing || completedReduces == reduces.length) {
      return; // no reduce needs them any more
    }
    for (int m : mapIndexes) {
      TaskInProgress tip = maps[m];
      if (tip.status == TIPStatus.COMPLETE) {
        LOG.warn("The output of " + tip.id + " is lost; the map runs again");
        tip.status = TIPStatus.PENDING;
        completedMaps--;
        mapsDone = false;
        launch(tip, true);
      }
    }
  }

  /** Whether every map's output is there: reduces may run. Read without the job's lock. */
  public boolean mapsDone() {
    return mapsDone;
  }

  /** Records the attempt's end, once; false when it had ended already. Under the job's lock. */
  private boolean end(Attempt attempt) {
    if (attempt.ended) {
      return false;
    }
    attempt.ended = true;
    inFlight--;
    TaskInProgress tip = attempt.task();
    if (tip.running.remove(attempt) && tip.running.isEmpty()) {
      runningTips.remove(tip);
    }
    if (tip.committer == attempt) {
      tip.committer = null; // it may have committed: another may commit over it only if it failed
    }
    return true;
  }

  private void countKilled(boolean isMap) {
    counters.findCounter(isMap ? JobCounter.NUM_KILLED_MAPS : JobCounter.NUM_KILLED_REDUCES).increment(1);
  }

  private static String firstLine(Throwable t) {
    Throwable root = t;
    String text = root.toString();
    while (root.getCause() != null && root.getCause() != root
        && (root instanceof UndeclaredThrowableException || root.getMessage() == null)) {
      root = root.getCause();
      text = root.toString();
    }
    return text;
  }

  private void recordAttemptEnd(Attempt attempt, AttemptCounters attemptCounters, String status, long end,
                                String error) {
    history.attemptFinished(end, attempt.idText(), attempt.id().getTaskType().name(), status, attempt.startTime(),
        end, attemptCounters, error);
  }

  /**
   * Every task is done: the commit is queued. Work still queued or running (maps run again for an
   * output lost after every reduce had it) is no longer needed: dropped, stopped, and its ends
   * recorded as killed.
   */
  private void startCommit() {
    committing = true;
    inFlight -= executor.dropQueued();
    stopAll();
    runStep(this::commit);
  }

  /** Asks every running attempt to stop. */
  private void stopAll() {
    for (TaskInProgress tip : runningTips) {
      for (Attempt attempt : tip.running) {
        stop(attempt);
      }
    }
  }

  private void commit() {
    boolean ok = jobStep("commit", () -> {
      committer.commitJob(jobContext);
      return null;
    });
    if (ok) {
      finish(JobStatus.State.SUCCEEDED);
    }
  }

  /** Stops the job: drops queued work, stops running attempts; the abort follows once all stopped. */
  private void terminate(JobStatus.State finalState, String info) {
    if (terminating || (committing && finalState == JobStatus.State.KILLED)) {
      return; // a kill while the job commits: it ends as its commit says
    }
    terminating = true;
    terminalState = finalState;
    failureInfo = info;
    inFlight -= executor.dropQueued();
    stopAll();
    maybeCleanup();
  }

  private void maybeCleanup() {
    if (terminating && inFlight == 0 && !cleanupQueued) {
      cleanupQueued = true;
      runStep(this::abort);
    }
  }

  private void abort() {
    try {
      if (committer != null) {
        inJobContext(() -> {
          committer.abortJob(jobContext, terminalState == JobStatus.State.KILLED
              ? JobStatus.State.KILLED : JobStatus.State.FAILED);
          return null;
        });
      }
    } catch (Throwable t) {
      LOG.error("Job abort failed for " + id, t);
    } finally {
      finish(terminalState);
    }
  }

  private void finish(JobStatus.State finalState) {
    long now = System.currentTimeMillis();
    synchronized (this) {
      for (TaskInProgress[] tips : new TaskInProgress[][] {maps, reduces}) {
        for (TaskInProgress tip : tips) {
          if (!tip.isDone()) {
            tip.status = TIPStatus.KILLED;
            tip.finishTime = now;
          }
        }
      }
      history.jobFinished(now, id.toString(), finalState.name(), submitTime, startTime, now, completedMaps,
          completedReduces, jobCounters(), finalState != JobStatus.State.SUCCEEDED ? failureInfo : null);
    }
    try {
      history.complete();
    } catch (IOException ex) {
      LOG.debug("job history not written", ex); // the writer logged why
    }
    executor.close();
    submission.localDirs().delete();
    try {
      inJobContext(() -> submission.submitDir().getFileSystem(conf).delete(submission.submitDir(), true));
    } catch (Exception ex) {
      LOG.warn("Could not delete staging directory " + submission.submitDir() + ": " + ex);
    }
    try {
      org.apache.hadoop.fs.FileSystem.closeAllForUGI(submission.ugi());
      submission.sandbox().close();
      submission.resources().close();
    } catch (IOException ex) {
      LOG.debug("closing job resources", ex);
    }
    synchronized (this) {
      state = finalState;
      finishTime = System.currentTimeMillis();
      notifyAll();
    }
    onFinish.run();
  }

  // ---- client-facing views ----------------------------------------------------------------

  /**
   * Kills the job and waits, up to {@code waitMillis}, for it to end: its attempts stop or, after the
   * executor's grace, are given up on, then its output is aborted.
   */
  public void kill(long waitMillis) throws InterruptedException {
    terminate("Job " + id + " killed by the client");
    awaitCompletion(waitMillis);
  }

  /** Kills the job (unless it is over) with {@code reason} as its failure info. */
  public synchronized void terminate(String reason) {
    if (!isComplete()) {
      terminate(JobStatus.State.KILLED, reason);
    }
  }

  /** Waits up to {@code millis} for the job to end. */
  public synchronized void awaitCompletion(long millis) throws InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    long left;
    while (!isComplete() && (left = deadline - System.nanoTime()) > 0) {
      wait(Math.max(1, left / 1_000_000L));
    }
  }

  // ---- the engine's monitor ---------------------------------------------------------------

  /**
   * Called by the monitor every few hundred milliseconds: fails an attempt that made no progress (no
   * record read or written, no counter, status or progress report) for the job's
   * {@code mapreduce.task.timeout}, with Hadoop's message. (An attempt that does not stop when asked
   * is the executor's to give up on.)
   */
  public synchronized void watch(long now) {
    if (taskTimeoutMillis != 0) {
      for (TaskInProgress tip : runningTips) {
        for (Attempt attempt : tip.running) {
          watchActivity(attempt, now);
        }
      }
    }
    speculate();
  }

  private void watchActivity(Attempt attempt, long now) {
    if (attempt.stopAsked) {
      return;
    }
    long activity = attempt.handle.activity();
    if (activity != attempt.activity) {
      attempt.activity = activity;
      attempt.activityChangedNanos = now;
    } else if (now - attempt.activityChangedNanos > taskTimeoutMillis * 1_000_000L) {
      attempt.timeoutMessage = "Task " + attempt.idText() + " failed to report status for "
          + taskTimeoutMillis / 1000 + " seconds. Killing!";
      LOG.warn(attempt.timeoutMessage);
      stop(attempt);
    }
  }

  /** Launches a speculative attempt of the tasks the speculator picks, ahead of the job's queued work. */
  private void speculate() {
    if (speculator == null || !setupDone || terminating || committing) {
      return;
    }
    for (TaskInProgress tip : speculator.choose(maps, completedMaps, reduces, completedReduces, clock.getAsLong())) {
      LOG.info("Task " + tip.id + " runs slower than a new attempt would: a speculative attempt is launched ("
          + tip.running.get(0).idText() + " runs on)");
      launch(tip, true);
    }
  }

  /**
   * Whether the attempt may commit its task's output (Hadoop's {@code canCommit}): the first of a
   * task's attempts to ask may, while it runs; a twin asking after it may not, and ends killed, as
   * Hadoop kills it.
   */
  public synchronized boolean mayCommit(Attempt attempt) {
    TaskInProgress tip = attempt.task();
    if (attempt.ended || terminating || committing) {
      return false;
    }
    if (tip.status == TIPStatus.COMPLETE || (tip.committer != null && tip.committer != attempt)) {
      attempt.killRequested = true;
      return false;
    }
    tip.committer = attempt;
    return true;
  }

  /** Asks a running attempt to stop; its executor reports its end. */
  private void stop(Attempt attempt) {
    attempt.stopAsked = true;
    attempt.handle.stop();
  }

  /** Stops one running attempt; it is retried unless {@code shouldFail} made it count as failed. */
  public synchronized boolean killTask(org.apache.hadoop.mapreduce.TaskAttemptID attemptId, boolean shouldFail) {
    for (TaskInProgress tip : runningTips) {
      for (Attempt attempt : tip.running) {
        if (attempt.idText().equals(attemptId.toString())) {
          attempt.killRequested = !shouldFail;
          stop(attempt);
          return true;
        }
      }
    }
    return false;
  }

  public synchronized boolean isComplete() {
    return state == JobStatus.State.SUCCEEDED || state == JobStatus.State.FAILED
        || state == JobStatus.State.KILLED;
  }

  public synchronized JobStatus status() {
    float setup = setupDone || isComplete() ? 1f : 0f;
    JobStatusSnapshot status = new JobStatusSnapshot(id, setup, progress(TaskType.MAP, completedMaps),
        progress(TaskType.REDUCE, completedReduces),
        isComplete() ? 1f : 0f, state, conf.getUser(), conf.getJobName(), conf.getQueueName(),
        new Path(submission.submitDir(), "job.xml").toString(),
        trackingUrl != null ? trackingUrl : historyFile.toURI().toString());
    status.times(submitTime, startTime, finishTime);
    status.failure(isComplete() && state != JobStatus.State.SUCCEEDED ? failureInfo : "");
    status.waiting(isComplete() ? "" : waitingFor);
    return status;
  }

  /** Finished tasks count whole, running ones by their attempt's progress. */
  private float progress(TaskType type, int completed) {
    int total = type == TaskType.MAP ? maps.length : reduces.length;
    if (total == 0) {
      return setupDone ? 1f : 0f;
    }
    float sum = completed;
    for (TaskInProgress tip : runningTips) {
      if (tip.id.getTaskType() == type) {
        sum += tip.progress();
      }
    }
    return Math.min(1f, sum / total);
  }

  public synchronized Counters counters() {
    return new Counters(jobCounters());
  }

  /** The job's counters with its successful attempts' added, as Hadoop's job counters hold them. */
  private synchronized org.apache.hadoop.mapred.Counters jobCounters() {
    org.apache.hadoop.mapred.Counters all = new org.apache.hadoop.mapred.Counters();
    all.incrAllCounters(counters);
    attemptTotals.addTo(all);
    return all;
  }

  public synchronized TaskReport[] taskReports(TaskType type) {
    TaskInProgress[] tips = type == TaskType.MAP ? maps : type == TaskType.REDUCE ? reduces : new TaskInProgress[0];
    TaskReport[] reports = new TaskReport[tips.length];
    for (int i = 0; i < tips.length; i++) {
      reports[i] = tips[i].report();
    }
    return reports;
  }

  public synchronized TaskCompletionEvent[] events(int from, int max) {
    if (from >= events.size()) {
      return TaskCompletionEvent.EMPTY_ARRAY;
    }
    int to = Math.min(events.size(), from + max);
    return events.subList(from, to).toArray(new TaskCompletionEvent[0]);
  }

  public synchronized String[] diagnostics(org.apache.hadoop.mapreduce.TaskAttemptID attemptId) {
    TaskInProgress[] tips = attemptId.getTaskType() == TaskType.MAP ? maps : reduces;
    int index = attemptId.getTaskID().getId();
    if (index < 0 || index >= tips.length) {
      return new String[0];
    }
    String diagnostic = tips[index].attemptDiagnostics.get(attemptId.getId());
    return diagnostic == null ? new String[0] : new String[] {diagnostic};
  }

  public synchronized int runningTasks(TaskType type) {
    int n = 0;
    for (TaskInProgress tip : runningTips) {
      if (tip.id.getTaskType() == type) {
        n++;
      }
    }
    return n;
  }
}
