package io.vivace.engine;

import io.vivace.conf.VivaceConf;
import io.vivace.exec.LocalExecutor;
import io.vivace.exec.WorkerPool;
import io.vivace.history.JobHistoryWriter;
import io.vivace.scheduler.JobRun;
import io.vivace.shuffle.ShuffleMemory;
import io.vivace.submit.Submission;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded Vivace runtime of this JVM: one warm worker pool and one shuffle memory budget
 * shared by every job submitted from the JVM ({@link LocalExecutor}), the registry of those jobs
 * (each a {@link JobRun}), the monitor of their attempts, and the engine's lease on
 * {@code hadoop.tmp.dir} with the shutdown hook that kills its jobs when the JVM ends.
 */
public final class Engine {

  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  /** How often the monitor looks at running attempts (timeouts, stops) and at starved jobs. */
  private static final long MONITOR_INTERVAL_MILLIS = 100;
  /** How long a JVM shutdown waits for the jobs it kills to end. */
  private static final long SHUTDOWN_WAIT_MILLIS = 10_000;
  /** Finished jobs kept for status queries. */
  private static final int RETAINED_JOBS = 1000;

  private static Engine instance;

  private final WorkerPool pool;
  private final ShuffleMemory shuffleMemory;
  private final LocalExecutor executor;
  private final EngineLease lease;
  private final long killGraceNanos;
  private final long lendAfterNanos;
  private final AtomicInteger nextJobNumber = new AtomicInteger();
  /** Keyed by the id's text: Hadoop's ids of the old and new API are never equal() to each other. */
  private final Map<String, JobRun> jobs = new LinkedHashMap<>();
  private int submitted;

  private Engine(Configuration conf) {
    int slots = VivaceConf.getInt(conf, "vivace.slots");
    this.pool = new WorkerPool(slots);
    long shuffleBytes = VivaceConf.getLong(conf, "vivace.shuffle.memory.mb") << 20;
    this.shuffleMemory = new ShuffleMemory(shuffleBytes);
    this.executor = new LocalExecutor(pool, shuffleMemory);
    File engines = EngineLease.enginesRoot(conf.get("hadoop.tmp.dir", "/tmp"));
    this.lease = EngineLease.claim(engines);
    Leftovers.collect(engines, lease.clusterId(), conf);
    this.killGraceNanos = VivaceConf.getLong(conf, "vivace.task.kill.grace.ms") * 1_000_000L;
    this.lendAfterNanos = VivaceConf.getLong(conf, "vivace.scheduler.lend.after.ms") * 1_000_000L;
    Thread monitor = new Thread(this::monitor, "vivace-monitor");
    monitor.setDaemon(true);
    monitor.start();
    // through Hadoop's hook manager, ahead of its own hook that closes every FileSystem: the jobs'
    // aborts still need theirs
    org.apache.hadoop.util.ShutdownHookManager.get().addShutdownHook(this::killAllOnShutdown,
        org.apache.hadoop.fs.FileSystem.SHUTDOWN_HOOK_PRIORITY + 10, SHUTDOWN_WAIT_MILLIS + 5000,
        java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  /**
   * The JVM is ending (SIGINT, SIGTERM, {@code System.exit} in a driver) with jobs running: each is
   * killed and aborted through its committer, its folders removed and its history closed as KILLED,
   * within {@value #SHUTDOWN_WAIT_MILLIS} ms in all.
   */
  private void killAllOnShutdown() {
    List<JobRun> running = new ArrayList<>();
    for (JobRun job : jobs()) {
      if (!job.isComplete()) {
        running.add(job);
        LOG.warn("Killing job " + job.id() + ": the JVM is shutting down");
        job.terminate("Job " + job.id() + " killed: the JVM running it is shutting down");
      }
    }
    long deadline = System.nanoTime() + SHUTDOWN_WAIT_MILLIS * 1_000_000L;
    for (JobRun job : running) {
      try {
        job.awaitCompletion(Math.max(0, (deadline - System.nanoTime()) / 1_000_000L));
      } catch (InterruptedException e) {
        return;
      }
      if (!job.isComplete()) {
        LOG.warn("Job " + job.id() + " did not end within " + SHUTDOWN_WAIT_MILLIS + " ms of the shutdown;"
            + " the next engine on this hadoop.tmp.dir will remove what it leaves");
      }
    }
    lease.release();
  }

  /** Enforces task timeouts and stops, and lends workers to starved jobs ({@link WorkerPool}). */
  private void monitor() {
    while (true) {
      try {
        Thread.sleep(MONITOR_INTERVAL_MILLIS);
        long now = System.nanoTime();
        for (JobRun job : jobs()) {
          if (!job.isComplete()) {
            job.watch(now);
          }
        }
        executor.watch(now, killGraceNanos);
        pool.lendIfStarved(lendAfterNanos);
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        LOG.error("engine monitor", e);
      }
    }
  }

  /** How long killing a job waits for it to end: the grace of its attempts, and a little more. */
  public long killWaitMillis() {
    return killGraceNanos / 1_000_000L + 500;
  }

  /** The engine of this JVM, started on first use with the given configuration's settings. */
  public static synchronized Engine get(Configuration conf) {
    if (instance == null) {
      instance = new Engine(conf);
    }
    return instance;
  }

  public WorkerPool pool() {
    return pool;
  }

  public ShuffleMemory shuffleMemory() {
    return shuffleMemory;
  }

  public JobID newJobId() {
    return new JobID(lease.clusterId(), nextJobNumber.incrementAndGet());
  }

  /** Registers and starts a prepared job. */
  public JobRun start(Submission submission) {
    VivaceConf.check(submission.conf());
    warnAboutSettingsNotApplied(submission.conf());
    JobRun[] holder = new JobRun[1];
    JobRun job = new JobRun(submission, executor, () -> retire(holder[0]));
    holder[0] = job;
    lease.record(job.id().toString(), files(submission));
    synchronized (this) {
      jobs.put(job.id().toString(), job);
      submitted++;
    }
    job.start();
    return job;
  }

  /** What a job keeps on disk while it runs, for {@link Leftovers} should the JVM die. */
  private static EngineLease.JobFiles files(Submission submission) {
    List<String> localDirs = new ArrayList<>();
    for (File dir : submission.localDirs().dirs()) {
      localDirs.add(dir.getAbsolutePath());
    }
    return new EngineLease.JobFiles(String.join(",", localDirs), submission.submitDir().toString(),
        submission.conf().get(org.apache.hadoop.mapreduce.lib.output.FileOutputFormat.OUTDIR),
        JobHistoryWriter.historyDir(submission.conf()).getAbsolutePath());
  }

  /** Says so when a job asks for what this engine does not do, rather than ignoring it silently. */
  private void warnAboutSettingsNotApplied(Configuration conf) {
    int slots = VivaceConf.isSet(conf, "vivace.slots") ? VivaceConf.getInt(conf, "vivace.slots") : pool.slots();
    if (slots != pool.slots()) {
      LOG.warn("vivace.slots=" + slots + " ignored: this JVM's engine already runs " + pool.slots()
          + " worker threads (set it before the JVM's first Vivace job)");
    }
  }

  private synchronized void retire(JobRun finished) {
    lease.forget(finished.id().toString());
    if (jobs.size() > RETAINED_JOBS) {
      var it = jobs.values().iterator();
      while (jobs.size() > RETAINED_JOBS && it.hasNext()) {
        if (it.next().isComplete()) {
          it.remove();
        }
      }
    }
  }

  public synchronized JobRun job(JobID id) {
    return jobs.get(id.toString());
  }

  public synchronized List<JobRun> jobs() {
    return new ArrayList<>(jobs.values());
  }

  public synchronized int submittedJobs() {
    return submitted;
  }

  public int runningTasks(TaskType type) {
    int n = 0;
    for (JobRun job : jobs()) {
      n += job.runningTasks(type);
    }
    return n;
  }
}
