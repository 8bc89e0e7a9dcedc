package io.vivace.exec;

import io.vivace.conf.VivaceConf;
import io.vivace.shuffle.ShuffleMemory;
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
 * shared by every job submitted from the JVM, and the registry of those jobs.
 */
public final class Engine {

  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  /** Finished jobs kept for status queries. */
  private static final int RETAINED_JOBS = 1000;

  private static Engine instance;

  private final WorkerPool pool;
  private final ShuffleMemory shuffleMemory;
  private final String clusterId;
  private final AtomicInteger nextJobNumber = new AtomicInteger();
  /** Keyed by the id's text: Hadoop's ids of the old and new API are never equal() to each other. */
  private final Map<String, JobRun> jobs = new LinkedHashMap<>();
  private int submitted;

  private Engine(Configuration conf) {
    int slots = VivaceConf.getInt(conf, "vivace.slots");
    this.pool = new WorkerPool(slots);
    long shuffleBytes = VivaceConf.getLong(conf, "vivace.shuffle.memory.mb") << 20;
    this.shuffleMemory = new ShuffleMemory(shuffleBytes);
    this.clusterId = claimClusterId(conf);
  }

  /** The engine of this JVM, started on first use with the given configuration's settings. */
  public static synchronized Engine get(Configuration conf) {
    if (instance == null) {
      instance = new Engine(conf);
    }
    return instance;
  }

  /**
   * Job ids look like Hadoop's ({@code job_<start millis>_<n>}). The start time is made unique
   * among engines sharing {@code hadoop.tmp.dir} by claiming a directory named after it.
   */
  private static String claimClusterId(Configuration conf) {
    File root = new File(conf.get("hadoop.tmp.dir", "/tmp"), "vivace/engines");
    root.mkdirs();
    long ts = System.currentTimeMillis();
    for (int i = 0; i < 1000; i++, ts++) {
      File claim = new File(root, Long.toString(ts));
      if (claim.mkdir()) {
        claim.deleteOnExit();
        return Long.toString(ts);
      }
    }
    return Long.toString(ts);
  }

  public WorkerPool pool() {
    return pool;
  }

  public ShuffleMemory shuffleMemory() {
    return shuffleMemory;
  }

  public JobID newJobId() {
    return new JobID(clusterId, nextJobNumber.incrementAndGet());
  }

  /** Registers and starts a prepared job. */
  public JobRun start(JobRun.Submission submission) {
    VivaceConf.check(submission.conf());
    warnAboutSettingsNotApplied(submission.conf());
    JobRun[] holder = new JobRun[1];
    JobRun job = new JobRun(submission, pool, shuffleMemory, () -> retire(holder[0]));
    holder[0] = job;
    synchronized (this) {
      jobs.put(job.id().toString(), job);
      submitted++;
    }
    job.start();
    return job;
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
