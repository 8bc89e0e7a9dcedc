package io.vivace.exec;

import io.vivace.client.JobResources;
import io.vivace.commit.OutputCommitters;
import io.vivace.conf.VivaceConf;
import io.vivace.counters.CounterTotals;
import io.vivace.history.JobHistoryWriter;
import io.vivace.merge.MergeAhead;
import io.vivace.plan.InputSplits;
import io.vivace.sandbox.JobSandbox;
import io.vivace.sandbox.TaskScope;
import io.vivace.sandbox.TaskWorkDir;
import io.vivace.shuffle.LocalDirs;
import io.vivace.shuffle.MapOutput;
import io.vivace.shuffle.SegmentCodec;
import io.vivace.shuffle.ShuffleRegistry;
import io.vivace.task.AttemptIdFormat;
import io.vivace.task.TaskAttempt;
import io.vivace.task.TaskEnvironment;
import io.vivace.task.TaskRunner;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.UndeclaredThrowableException;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.TIPStatus;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.StringUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One submitted job as a state machine driven by task completions: setup, maps, reduces, commit;
 * or, on failure or kill, stop the running attempts and abort. All of its work runs on the
 * engine's worker pool, inside the job's user identity and class loader.
 */
public final class JobRun {

  private static final Logger LOG = LoggerFactory.getLogger(JobRun.class);

  /** Everything a job needs that submission prepared. */
  public record Submission(JobID id, JobConf conf, Path submitDir, UserGroupInformation ugi,
                           JobResources resources, JobSandbox sandbox, InputSplits splits,
                           LocalDirs localDirs) {

    /** The job's own local folder: {@code job.xml}, its working directory, its cache. */
    public File jobDir() {
      return localDirs.jobDir();
    }
  }

  private final Submission submission;
  private final JobID id;
  private final JobConf conf;
  private final WorkerPool pool;
  private final WorkerPool.JobQueue queue;
  private final TaskEnvironment env;
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

  private OutputCommitter committer;
  private org.apache.hadoop.mapred.JobContextImpl jobContext;
  private JobStatus.State state = JobStatus.State.PREP;
  private boolean setupDone;
  private boolean terminating;
  private JobStatus.State terminalState;
  private String failureInfo = "";
  private int inFlight;
  private boolean cleanupQueued;
  private int completedMaps;
  private int completedReduces;
  private final long submitTime = System.currentTimeMillis();
  private long startTime;
  private long finishTime;
  private final File historyFile;
  /** Why the job's map output codec cannot be used; the job fails before it starts. */
  private IOException unusableCodec;

  JobRun(Submission submission, WorkerPool pool, io.vivace.shuffle.ShuffleMemory shuffleMemory,
         Runnable onFinish) {
    this.submission = submission;
    this.id = submission.id();
    this.conf = submission.conf();
    this.pool = pool;
    this.onFinish = onFinish;
    int mapCount = submission.splits().count();
    int reduceCount = conf.getNumReduceTasks();
    SegmentCodec mapOutputCodec = SegmentCodec.NONE;
    if (reduceCount > 0) { // a map-only job has no map output to compress (Hadoop ignores the codec)
      try {
        mapOutputCodec = SegmentCodec.forJob(conf);
      } catch (IOException e) {
        unusableCodec = e;
      }
    }
    ShuffleRegistry shuffle = new ShuffleRegistry(mapCount, reduceCount);
    if (reduceCount > 0 && VivaceConf.getBoolean(conf, "vivace.reduce.merge.ahead")) {
      MergeAhead.attach(shuffle, conf.getInt(MRJobConfig.IO_SORT_FACTOR, MRJobConfig.DEFAULT_IO_SORT_FACTOR),
          conf::getOutputKeyComparator, mapOutputCodec, submission.localDirs().scratch("merge-ahead"),
          "vivace-merge-ahead-" + id, conf.getClassLoader());
    }
    this.env = new TaskEnvironment(conf, id, mapCount, reduceCount, new SerializationFactory(conf),
        shuffle, shuffleMemory, mapOutputCodec, submission.localDirs());
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
    this.queue = pool.register();
    this.historyFile = new File(JobHistoryWriter.historyDir(conf), id + ".jsonl");
    this.history = new JobHistoryWriter(historyFile);
    this.jobScope = new TaskScope("job " + id, new TaskWorkDir(submission.resources().workDir(), java.util.Map.of()),
        () -> { });
  }

  public JobID id() {
    return id;
  }

  synchronized void start() {
    history.jobSubmitted(submitTime, id.toString(), conf.getJobName(), conf.getUser(), maps.length,
        reduces.length, conf);
    enqueue(this::setup);
  }

  // ---- work items -------------------------------------------------------------------------

  /**
   * One piece of the job's work on a worker. Its end is counted once: when it returns, or earlier
   * by whoever abandons it (an attempt that would not stop), so the job can end without it.
   */
  private final class Unit implements Runnable {
    private final java.util.function.Consumer<Unit> body;
    private boolean released;

    Unit(java.util.function.Consumer<Unit> body) {
      this.body = body;
    }

    @Override
    public void run() {
      try {
        body.accept(this);
      } catch (Throwable t) {
        LOG.error("Internal error in job " + id, t);
        synchronized (JobRun.this) {
          terminate(JobStatus.State.FAILED, "Internal error: " + StringUtils.stringifyException(t));
        }
      } finally {
        synchronized (JobRun.this) {
          release();
          maybeCleanup();
        }
      }
    }

    /** Guarded by the job's lock. */
    void release() {
      if (!released) {
        released = true;
        inFlight--;
      }
    }
  }

  private void enqueue(Runnable body) {
    enqueue(unit -> body.run(), false);
  }

  private void enqueue(java.util.function.Consumer<Unit> body, boolean first) {
    inFlight++;
    Unit unit = new Unit(body);
    if (first) {
      pool.enqueueFirst(queue, unit);
    } else {
      pool.enqueue(queue, unit);
    }
  }

  /** Runs job code as the job's user, with {@code loader} as the thread's context class loader, in {@code scope}. */
  private <T> T inJobContext(ClassLoader loader, TaskScope scope, PrivilegedExceptionAction<T> action)
      throws Exception {
    Thread thread = Thread.currentThread();
    ClassLoader previousLoader = thread.getContextClassLoader();
    TaskScope previousScope = TaskScope.enter(scope);
    thread.setContextClassLoader(loader);
    try {
      return submission.ugi().doAs(action);
    } catch (UndeclaredThrowableException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    } finally {
      thread.setContextClassLoader(previousLoader);
      TaskScope.restore(previousScope);
    }
  }

  /** Job code of the job's own steps (setup, commit, abort), as in the application master's JVM. */
  private <T> T inJobContext(PrivilegedExceptionAction<T> action) throws Exception {
    return inJobContext(conf.getClassLoader(), jobScope, action);
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
        enqueue(unit -> runAttempt(tip, unit), false);
      }
    }
  }

  private void mapsComplete() {
    if (reduces.length == 0) {
      enqueue(this::commit);
    }
    for (TaskInProgress tip : reduces) {
      enqueue(unit -> runAttempt(tip, unit), false);
    }
  }

  private void runAttempt(TaskInProgress tip, Unit unit) {
    boolean isMap = tip.id.getTaskType() == TaskType.MAP;
    org.apache.hadoop.mapred.TaskAttemptID attemptId;
    synchronized (this) {
      if (terminating) {
        return;
      }
      attemptId = new org.apache.hadoop.mapred.TaskAttemptID(tip.id, tip.attempts++);
    }
    // the attempt's configuration and ids (a good part of a small task's cost) outside the job's
    // lock, which every other worker takes to start and to finish its own attempts
    Thread worker = Thread.currentThread();
    ClassLoader loader = submission.sandbox().loaderFor(worker.getId());
    TaskAttempt attempt = new TaskAttempt(env, attemptId, attemptIds.format(attemptId), loader);
    TaskScope scope = new TaskScope("task " + attempt.idText(),
        new TaskWorkDir(new File(submission.jobDir(), "tasks/" + attempt.idText()), submission.resources().links()),
        () -> stopAttempt(attempt, worker));
    long start = System.currentTimeMillis();
    synchronized (this) {
      if (terminating) {
        return;
      }
      tip.running = attempt;
      tip.runningThread = worker;
      tip.runningUnit = unit;
      tip.runningSince = start;
      tip.activity = -1;
      tip.activityChangedNanos = System.nanoTime();
      tip.stopAskedNanos = 0;
      tip.timeoutMessage = null;
      runningTips.add(tip);
      tip.status = TIPStatus.RUNNING;
      if (tip.startTime == 0) {
        tip.startTime = start;
      }
      counters.findCounter(isMap ? JobCounter.TOTAL_LAUNCHED_MAPS : JobCounter.TOTAL_LAUNCHED_REDUCES)
          .increment(1);
    }
    // outside the job's lock: JOB_FINISHED cannot come before it, as the job ends only after this unit
    history.attemptStarted(start, attempt.idText(), isMap ? "MAP" : "REDUCE", worker.getName());
    try {
      MapOutput output = inJobContext(loader, scope, () -> {
        Object split = null;
        if (isMap) {
          InputSplits.Split read = submission.splits().read(tip.index, attempt.conf(), env.serialization());
          attempt.reporter().frameworkCounter(TaskCounter.SPLIT_RAW_BYTES).increment(read.rawBytes());
          split = read.split();
        }
        return TaskRunner.run(attempt, split);
      });
      attemptSucceeded(tip, attempt, output, start);
    } catch (Throwable t) {
      Throwable exit = scope.exitError(); // an exit from another thread of the task stopped this one
      attemptFailed(tip, attempt, exit != null ? exit : t, start);
    } finally {
      scope.deleteWorkDir();
    }
  }

  /** Asks an attempt to stop: at its next record, and by interrupt when another thread asks. */
  private static void stopAttempt(TaskAttempt attempt, Thread worker) {
    attempt.reporter().kill();
    if (Thread.currentThread() != worker) {
      worker.interrupt();
    }
  }

  private synchronized void attemptSucceeded(TaskInProgress tip, TaskAttempt attempt, MapOutput output,
                                             long start) {
    boolean isMap = tip.id.getTaskType() == TaskType.MAP;
    long now = System.currentTimeMillis();
    if (tip.running != attempt) { // abandoned: its end was recorded when it was given up on
      if (output != null) {
        output.release();
      }
      attempt.abort();
      return;
    }
    tip.running = null;
    tip.runningThread = null;
    tip.runningUnit = null;
    runningTips.remove(tip);
    if (terminating) {
      if (output != null) {
        output.release();
      }
      recordAttemptEnd(attempt, "KILLED", start, now, null);
      countKilled(isMap);
      return;
    }
    tip.status = TIPStatus.COMPLETE;
    tip.finishTime = now;
    tip.counters = attempt.reporter().counters();
    attemptTotals.add(attempt.reporter().counters());
    counters.findCounter(isMap ? JobCounter.MILLIS_MAPS : JobCounter.MILLIS_REDUCES).increment(now - start);
    events.add(new TaskCompletionEvent(events.size(), attempt.id(), tip.index, isMap,
        TaskCompletionEvent.Status.SUCCEEDED, ""));
    recordAttemptEnd(attempt, "SUCCEEDED", start, now, null);
    if (isMap) {
      if (output != null) {
        env.shuffle().publish(tip.index, output);
      }
      if (++completedMaps == maps.length) {
        mapsComplete();
      }
    } else {
      env.shuffle().releasePartition(tip.index);
      if (++completedReduces == reduces.length) {
        enqueue(this::commit);
      }
    }
  }

  private synchronized void attemptFailed(TaskInProgress tip, TaskAttempt attempt, Throwable cause,
                                          long start) {
    boolean isMap = tip.id.getTaskType() == TaskType.MAP;
    long now = System.currentTimeMillis();
    if (tip.running != attempt) { // abandoned: its end was recorded when it was given up on
      return;
    }
    tip.running = null;
    tip.runningThread = null;
    tip.runningUnit = null;
    runningTips.remove(tip);
    if (tip.timeoutMessage != null) {
      cause = new java.util.concurrent.TimeoutException(tip.timeoutMessage);
    }
    boolean killed = (terminating || tip.killRequested) && tip.timeoutMessage == null;
    tip.killRequested = false;
    String diagnostic = StringUtils.stringifyException(cause);
    tip.diagnostics.add(diagnostic);
    events.add(new TaskCompletionEvent(events.size(), attempt.id(), tip.index, isMap,
        killed ? TaskCompletionEvent.Status.KILLED : TaskCompletionEvent.Status.FAILED, ""));
    recordAttemptEnd(attempt, killed ? "KILLED" : "FAILED", start, now, diagnostic);
    if (killed) {
      countKilled(isMap);
    }
    if (terminating) {
      return;
    }
    if (!killed) {
      tip.failures++;
      counters.findCounter(isMap ? JobCounter.NUM_FAILED_MAPS : JobCounter.NUM_FAILED_REDUCES).increment(1);
      LOG.warn("Task attempt " + attempt.id() + " failed (" + tip.failures + " of "
          + (isMap ? maxMapAttempts : maxReduceAttempts) + " attempts): " + cause);
    }
    if (tip.failures < (isMap ? maxMapAttempts : maxReduceAttempts)) {
      tip.status = TIPStatus.PENDING;
      enqueue(unit -> runAttempt(tip, unit), true);
      return;
    }
    tip.status = TIPStatus.FAILED;
    tip.finishTime = now;
    terminate(JobStatus.State.FAILED, "Task failed " + tip.id + "\n"
        + "Job failed as tasks failed. failedMaps:" + (isMap ? 1 : 0) + " failedReduces:" + (isMap ? 0 : 1)
        + "\nLast attempt " + attempt.id() + " failed with: " + firstLine(cause));
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

  private void recordAttemptEnd(TaskAttempt attempt, String status, long start, long end, String error) {
    history.attemptFinished(end, attempt.idText(), attempt.id().getTaskType().name(), status, start, end,
        attempt.reporter().counters(), error);
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
    if (terminating) {
      return;
    }
    terminating = true;
    terminalState = finalState;
    failureInfo = info;
    inFlight -= pool.clear(queue);
    long now = System.nanoTime();
    for (TaskInProgress tip : runningTips) {
      stop(tip, now);
    }
    maybeCleanup();
  }

  private void maybeCleanup() {
    if (terminating && inFlight == 0 && !cleanupQueued) {
      cleanupQueued = true;
      inFlight++;
      pool.enqueue(queue, this::abort);
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
    env.shuffle().releaseAll();
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
    pool.unregister(queue);
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
   * engine's grace, are abandoned ({@link #watch}), then its output is aborted.
   */
  public void kill(long waitMillis) throws InterruptedException {
    terminate("Job " + id + " killed by the client");
    awaitCompletion(waitMillis);
  }

  /** Kills the job (unless it is over) with {@code reason} as its failure info. */
  synchronized void terminate(String reason) {
    if (!isComplete()) {
      terminate(JobStatus.State.KILLED, reason);
    }
  }

  /** Waits up to {@code millis} for the job to end. */
  synchronized void awaitCompletion(long millis) throws InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    long left;
    while (!isComplete() && (left = deadline - System.nanoTime()) > 0) {
      wait(Math.max(1, left / 1_000_000L));
    }
  }

  /** What the job keeps on disk while it runs, for {@link Leftovers} should the JVM die. */
  EngineLease.JobFiles files() {
    List<String> localDirs = new ArrayList<>();
    for (File dir : submission.localDirs().dirs()) {
      localDirs.add(dir.getAbsolutePath());
    }
    return new EngineLease.JobFiles(String.join(",", localDirs), submission.submitDir().toString(),
        conf.get(org.apache.hadoop.mapreduce.lib.output.FileOutputFormat.OUTDIR),
        JobHistoryWriter.historyDir(conf).getAbsolutePath());
  }

  // ---- the engine's monitor ---------------------------------------------------------------

  /**
   * Called by the engine's monitor every few hundred milliseconds: fails an attempt that made no
   * progress (no record read or written, no counter, status or progress report) for the job's
   * {@code mapreduce.task.timeout}, with Hadoop's message, and abandons an attempt that was asked
   * to stop more than {@code graceNanos} ago and has not: its slot goes to a new worker at once.
   */
  synchronized void watch(long now, long graceNanos) {
    for (TaskInProgress tip : new ArrayList<>(runningTips)) {
      if (tip.stopAskedNanos != 0) {
        if (now - tip.stopAskedNanos > graceNanos) {
          abandon(tip);
        }
        continue;
      }
      long activity = tip.running.reporter().activity();
      if (activity != tip.activity) {
        tip.activity = activity;
        tip.activityChangedNanos = now;
      } else if (taskTimeoutMillis > 0 && now - tip.activityChangedNanos > taskTimeoutMillis * 1_000_000L) {
        tip.timeoutMessage = "Task " + tip.running.idText() + " failed to report status for "
            + taskTimeoutMillis / 1000 + " seconds. Killing!";
        LOG.warn(tip.timeoutMessage);
        stop(tip, now);
      }
    }
  }

  /** Asks a running attempt to stop: at its next record, and by interrupt. */
  private void stop(TaskInProgress tip, long now) {
    if (tip.stopAskedNanos == 0) {
      tip.stopAskedNanos = now;
    }
    tip.running.reporter().kill();
    tip.runningThread.interrupt();
  }

  /** Gives up on an attempt that will not stop: records its end now and frees its worker's slot. */
  private void abandon(TaskInProgress tip) {
    TaskAttempt attempt = tip.running;
    Runnable work = tip.runningUnit;
    if (!pool.abandon(tip.runningThread, work)) {
      return;
    }
    LOG.warn("Task attempt " + attempt.idText() + " did not stop when asked; its thread ("
        + tip.runningThread.getName() + ") is abandoned and a new worker takes its slot");
    ((Unit) work).release();
    attemptFailed(tip, attempt, new java.util.concurrent.CancellationException(
        "task attempt " + attempt.idText() + " did not stop when asked and was abandoned"), tip.runningSince);
    maybeCleanup();
  }

  /** Stops one running attempt; it is retried unless {@code shouldFail} made it count as failed. */
  public synchronized boolean killTask(org.apache.hadoop.mapreduce.TaskAttemptID attemptId, boolean shouldFail) {
    for (TaskInProgress tip : runningTips) {
      if (tip.running.id().toString().equals(attemptId.toString())) {
        tip.killRequested = !shouldFail;
        stop(tip, System.nanoTime());
        return true;
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
    EngineJobStatus status = new EngineJobStatus(id, setup, progress(TaskType.MAP, completedMaps),
        progress(TaskType.REDUCE, completedReduces),
        isComplete() ? 1f : 0f, state, conf.getUser(), conf.getJobName(), conf.getQueueName(),
        new Path(submission.submitDir(), "job.xml").toString(), historyFile.toURI().toString());
    status.times(submitTime, startTime, finishTime);
    status.failure(isComplete() && state != JobStatus.State.SUCCEEDED ? failureInfo : "");
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
    return tips[index].diagnostics.toArray(new String[0]);
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
