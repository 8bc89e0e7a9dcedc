package io.vivace.cluster.session;

import io.vivace.conf.ValueSources;
import io.vivace.scheduler.JobsClientProtocol;
import io.vivace.cluster.ReadBackJobs;
import io.vivace.cluster.rpc.JobToRead;
import io.vivace.cluster.rpc.SessionClientProtocol;
import io.vivace.conf.VivaceConf;
import io.vivace.scheduler.JobRun;
import io.vivace.submit.JobDescription;
import io.vivace.submit.Submission;
import io.vivace.submit.SubmissionLoader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.ClusterMetrics;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskTrackerInfo;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jobs of a session, and Hadoop's job client protocol over them, as the session's application
 * master serves it to job clients: a job is either sent in the call as its description (held here
 * for the job's life, {@link DescribedJobs}, written into a folder of the master's own) or staged on
 * the cluster's file system as for MapReduce on YARN; it is read back here
 * ({@link SubmissionLoader}), scheduled by its {@link JobRun}, run by the session's executors
 * ({@link Dispatcher}).
 */
final class SessionJobs extends JobsClientProtocol implements SessionClientProtocol {

  private static final Logger LOG = LoggerFactory.getLogger(SessionJobs.class);
  /** Finished jobs kept for status queries. */
  private static final int RETAINED_JOBS = 1000;
  /** How many clients' calls may wait for their job's end at once ({@link #awaitJobEnd}). */
  static final int AWAITS = 32;
  private static final long MAX_AWAIT_MILLIS = 1000;

  private final Configuration conf;
  private final Dispatcher dispatcher;
  private final String clusterId;
  private final long killWaitMillis;
  private final AtomicInteger nextJobNumber = new AtomicInteger();
  private final Semaphore awaits = new Semaphore(AWAITS);
  private final Map<String, JobRun> jobs = new LinkedHashMap<>();
  private final java.io.File localHistory;
  private final java.io.File describedRoot;
  private final Path history;
  private final HistoryCopies historyCopies;
  /**
   * How recently a job's client must have asked for its status for the ending session to wait for it to
   * see the job's end: twice Hadoop's default completion poll (5 s). A client that asks less often (or
   * never, or has died) reads the end from YARN's report of the session once it has gone.
   */
  private static final long WATCHED_NANOS = 10_000_000_000L;

  /** Jobs the ending session killed whose watching clients have not yet been answered with their end. */
  private final Set<String> endsUnseen = ConcurrentHashMap.newKeySet();
  /** Whether a job {@link #killAll} killed had a watching client. */
  private volatile boolean killedJobWatched;
  /** Ids of the jobs whose submission is under way ({@link #claim}). */
  private final Set<String> beingSubmitted = new java.util.HashSet<>();
  /** When each job's client last asked for its status (System.nanoTime). */
  private final Map<String, Long> statusAsked = new ConcurrentHashMap<>();
  private int submitted;
  private long lastActivityNanos = System.nanoTime();
  private volatile String trackingBase;

  /**
   * {@code clusterId}: the first part of the session's job ids, unique to the session; jobs write
   * their history into {@code localHistory}, and it is copied to {@code vivace.session.history.dir}
   * on the cluster's file system when they end. Jobs submitted by description are written into
   * {@code vivace-described} beside it.
   */
  SessionJobs(Configuration conf, Dispatcher dispatcher, String clusterId, java.io.File localHistory) {
    this.conf = conf;
    this.dispatcher = dispatcher;
    this.clusterId = clusterId;
    // the grace, the dispatcher's wait for the executor's word beyond it, and the abort
    this.killWaitMillis = VivaceConf.getLong(conf, "vivace.task.kill.grace.ms") + 3000;
    this.localHistory = localHistory;
    this.describedRoot = new java.io.File(localHistory.getParentFile(), "vivace-described");
    this.history = new Path(VivaceConf.get(conf, "vivace.session.history.dir"));
    this.historyCopies = new HistoryCopies(conf, history);
  }

  /** Waits up to {@code millis} for the ended jobs' histories to be copied; false when some are not. */
  boolean finishHistoryCopies(long millis) throws InterruptedException {
    return historyCopies.finish(millis);
  }

  /** Jobs are tracked at {@code base}{@code job/<id>} (the session's web page). */
  void trackAt(String base) {
    this.trackingBase = base;
  }

  @Override
  public JobID getNewJobID() {
    return new JobID(clusterId, nextJobNumber.incrementAndGet());
  }

  /**
   * A job whose client sent it as its description: written into a folder of the master's own and
   * read back from there, as a staged job is from its staging folder, and held for the executors.
   */
  @Override
  public JobStatus submitDescribedJob(JobID jobId, JobDescription description, Credentials credentials)
      throws IOException {
    if (!description.isPresent()) {
      throw new IOException("job " + jobId + " was submitted without its description");
    }
    claim(jobId);
    try {
      java.io.File dir = new java.io.File(describedRoot, jobId.toString());
      if (dir.exists()) {
        throw new IOException("job " + jobId + " was already submitted");
      }
      description.writeTo(dir);
      dispatcher.described().hold(jobId.toString(), description);
      try {
        return take(jobId, new Path(dir.toURI()).toString(), credentials);
      } catch (IOException | RuntimeException e) {
        dispatcher.described().release(jobId.toString());
        org.apache.hadoop.fs.FileUtil.fullyDelete(dir);
        throw e;
      }
    } finally {
      unclaim(jobId);
    }
  }

  /**
   * Marks {@code jobId} as being submitted, refusing it when it is already, or was: of two calls
   * submitting one id at once (a client's retry), only one takes the job.
   */
  private synchronized void claim(JobID jobId) throws IOException {
    if (jobs.containsKey(jobId.toString()) || !beingSubmitted.add(jobId.toString())) {
      throw new IOException("job " + jobId + " was already submitted");
    }
  }

  private synchronized void unclaim(JobID jobId) {
    beingSubmitted.remove(jobId.toString());
  }

  /**
   * A job staged on the cluster's file system, or described ({@link #submitDescribedJob}). Its id
   * may be another session's: a client whose session ended between giving it the id and taking its
   * job starts the job over here, under that id.
   */
  @Override
  public JobStatus submitJob(JobID jobId, String jobSubmitDir, Credentials credentials) throws IOException {
    claim(jobId);
    try {
      return take(jobId, jobSubmitDir, credentials);
    } finally {
      unclaim(jobId);
    }
  }

  /** Reads job {@code jobId} back from {@code jobSubmitDir} and starts it; the caller has claimed the id. */
  private JobStatus take(JobID jobId, String jobSubmitDir, Credentials credentials) throws IOException {
    dispatcher.readAhead(new JobToRead(jobId.toString(), jobSubmitDir, credentials));
    Submission submission;
    try {
      submission = SubmissionLoader.load(jobId, jobSubmitDir, credentials, conf);
    } catch (IOException | RuntimeException e) {
      dispatcher.notTaken(jobId.toString());
      throw e;
    }
    JobRun[] holder = new JobRun[1];
    JobRun job;
    try {
      VivaceConf.check(submission.conf());
      submission.conf().set("vivace.history.dir", localHistory.getAbsolutePath());
      commitOnlyAtTheEnd(submission.conf());
      job = new JobRun(submission, dispatcher, () -> finished(holder[0]));
    } catch (RuntimeException e) {
      LOG.warn("Job " + jobId + " refused: " + e.getMessage());
      dispatcher.notTaken(jobId.toString());
      ReadBackJobs.release(submission);
      throw e;
    }
    holder[0] = job;
    if (trackingBase != null) {
      job.trackAt(trackingBase + "job/" + jobId);
    }
    synchronized (this) {
      jobs.put(job.id().toString(), job);
      submitted++;
      lastActivityNanos = System.nanoTime();
    }
    LOG.info("Job " + jobId + " submitted by " + UserGroupInformation.getCurrentUser().getShortUserName()
        + ", read in " + submission.loadTimes());
    job.start();
    return job.status();
  }

  /**
   * Hadoop's file output committer writes a task's output straight into the output folder with its
   * algorithm 2 (Hadoop 3's default), so a job whose session died half-way would leave part of its
   * output there. Unless the job chose an algorithm itself, a session's jobs use algorithm 1: task
   * outputs stay under {@code _temporary} until the job commits.
   */
  private static void commitOnlyAtTheEnd(Configuration jobConf) {
    String key = "mapreduce.fileoutputcommitter.algorithm.version";
    // Hadoop's default, whatever file carried it on (a client file written from a whole configuration
    // passes it on as set there); a job.xml naming no source is the client's, not the job's choice
    String origin = ValueSources.origin(jobConf, key);
    boolean chosenByTheJob = origin != null && !origin.endsWith("-default.xml") && !origin.endsWith("job.xml");
    if (!chosenByTheJob) {
      jobConf.setInt(key, 1);
    }
  }

  private void finished(JobRun job) {
    dispatcher.described().release(job.id().toString());
    org.apache.hadoop.mapreduce.JobStatus status = job.status();
    LOG.info("Job " + job.id() + " ended " + status.getState() + " after "
        + (status.getFinishTime() - status.getStartTime()) / 1000.0 + " s"
        + (status.getFailureInfo().isEmpty() ? "" : ": " + status.getFailureInfo()));
    historyCopies.copy(job.id().toString(), job.historyFile(), job.submission().ugi());
    synchronized (this) {
      retire();
    }
  }

  private void retire() {
    lastActivityNanos = System.nanoTime();
    if (jobs.size() > RETAINED_JOBS) {
      jobs.values().removeIf(j -> j.isComplete() && jobs.size() > RETAINED_JOBS);
      statusAsked.keySet().retainAll(jobs.keySet());
    }
  }

  /** Whether no job runs and none ended or was submitted for {@code idleNanos}. */
  synchronized boolean idleFor(long now, long idleNanos) {
    for (JobRun job : jobs.values()) {
      if (!job.isComplete()) {
        return false;
      }
    }
    return now - lastActivityNanos > idleNanos;
  }

  /** Kills every running job (the session is ending); returns the ids of those that were running. */
  List<String> killAll(String reason) {
    List<String> running = new ArrayList<>();
    long now = System.nanoTime();
    for (JobRun job : jobs()) {
      if (!job.isComplete()) {
        String id = job.id().toString();
        running.add(id);
        Long asked = statusAsked.get(id);
        if (asked != null && now - asked < WATCHED_NANOS) {
          endsUnseen.add(id);
          killedJobWatched = true;
        }
        job.terminate(reason);
      }
    }
    return running;
  }

  /** Whether a client was watching one of the jobs {@link #killAll} killed. */
  boolean killedJobWatched() {
    return killedJobWatched;
  }

  /** Whether the watching client of every job {@link #killAll} killed has since been told it ended. */
  boolean killedJobsEndsSeen() {
    return endsUnseen.isEmpty();
  }

  @Override
  public JobStatus getJobStatus(JobID jobId) {
    JobStatus status = super.getJobStatus(jobId);
    if (status != null) {
      statusAsked.put(jobId.toString(), System.nanoTime());
    }
    if (status != null && status.isJobComplete()) {
      endsUnseen.remove(jobId.toString());
    }
    return status;
  }

  /**
   * Holds the call until the job ends or {@code waitMillis} pass (at most {@link #MAX_AWAIT_MILLIS}), on
   * one of the RPC server's handlers: at most {@link #AWAITS} calls wait at once, so that they leave
   * handlers to the executors and the other calls.
   */
  @Override
  public JobStatus awaitJobEnd(JobID jobId, long waitMillis) throws InterruptedException {
    JobRun job = job(jobId);
    if (job == null || !awaits.tryAcquire()) {
      return null;
    }
    try {
      job.awaitCompletion(Math.max(0, Math.min(waitMillis, MAX_AWAIT_MILLIS)));
    } finally {
      awaits.release();
    }
    return getJobStatus(jobId);
  }

  @Override
  protected synchronized JobRun job(JobID id) {
    return jobs.get(id.toString());
  }

  @Override
  protected synchronized List<JobRun> jobs() {
    return new ArrayList<>(jobs.values());
  }

  @Override
  protected long killWaitMillis() {
    return killWaitMillis;
  }

  /** Every job's timeouts, for the monitor. */
  void watch(long now) {
    for (JobRun job : jobs()) {
      if (!job.isComplete()) {
        job.watch(now);
      }
    }
  }

  @Override
  public ClusterMetrics getClusterMetrics() {
    int executors = dispatcher.executorCount();
    int runningMaps = runningTasks(TaskType.MAP);
    int runningReduces = runningTasks(TaskType.REDUCE);
    int slots = dispatcher.slots();
    int submittedJobs;
    synchronized (this) {
      submittedJobs = submitted;
    }
    // occupied slots: what the executors run as far as the session knows, killed jobs' attempts
    // that have not stopped yet included
    return new ClusterMetrics(runningMaps, runningReduces, dispatcher.runningAttempts(true),
        dispatcher.runningAttempts(false), 0, 0, slots, slots, submittedJobs, executors, 0, 0);
  }

  @Override
  public TaskTrackerInfo[] getActiveTrackers() {
    List<TaskTrackerInfo> trackers = new ArrayList<>();
    for (String name : dispatcher.executorNames()) {
      trackers.add(new TaskTrackerInfo(name));
    }
    return trackers.toArray(new TaskTrackerInfo[0]);
  }

  @Override
  public String getFilesystemName() throws IOException {
    return FileSystem.get(conf).getUri().toString();
  }

  /** As MapReduce on YARN stages: {@code yarn.app.mapreduce.am.staging-dir/<user>/.staging}. */
  @Override
  public String getStagingAreaDir() throws IOException {
    String user = UserGroupInformation.getCurrentUser().getShortUserName();
    Path dir = new Path(conf.get(MRJobConfig.MR_AM_STAGING_DIR, MRJobConfig.DEFAULT_MR_AM_STAGING_DIR),
        user + "/.staging");
    return dir.getFileSystem(conf).makeQualified(dir).toString();
  }

  @Override
  public String getSystemDir() throws IOException {
    Path dir = new Path(conf.get(MRJobConfig.MR_AM_STAGING_DIR, MRJobConfig.DEFAULT_MR_AM_STAGING_DIR),
        "vivace-system");
    return dir.getFileSystem(conf).makeQualified(dir).toString();
  }

  @Override
  public String getJobHistoryDir() throws IOException {
    return history.getFileSystem(conf).makeQualified(history).toString();
  }
}
