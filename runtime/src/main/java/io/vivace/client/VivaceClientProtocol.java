package io.vivace.client;

import io.vivace.engine.Engine;
import io.vivace.history.JobHistoryWriter;
import io.vivace.scheduler.JobRun;
import io.vivace.submit.Submission;
import io.vivace.submit.SubmissionLoader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.ClusterMetrics;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.QueueAclsInfo;
import org.apache.hadoop.mapreduce.QueueInfo;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskTrackerInfo;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.mapreduce.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.mapreduce.v2.LogParams;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.AccessControlList;
import org.apache.hadoop.security.token.Token;

/** Hadoop's job client protocol served in-process by the embedded {@link Engine}. */
public final class VivaceClientProtocol implements ClientProtocol {

  private static final String STAGING_ROOT = "mapreduce.jobtracker.staging.root.dir";

  private final Configuration conf;
  private final Engine engine;

  VivaceClientProtocol(Configuration conf) {
    this.conf = conf;
    this.engine = Engine.get(conf);
  }

  @Override
  public JobID getNewJobID() {
    return engine.newJobId();
  }

  @Override
  public JobStatus submitJob(JobID jobId, String jobSubmitDir, Credentials ts) throws IOException {
    Submission submission = SubmissionLoader.load(jobId, jobSubmitDir, ts, conf);
    return engine.start(submission).status();
  }

  private JobRun job(JobID id) throws IOException {
    JobRun job = engine.job(id);
    if (job == null) {
      throw new IOException("Unknown job " + id);
    }
    return job;
  }

  @Override
  public JobStatus getJobStatus(JobID jobid) {
    JobRun job = engine.job(jobid);
    return job == null ? null : job.status();
  }

  @Override
  public Counters getJobCounters(JobID jobid) throws IOException {
    return job(jobid).counters();
  }

  @Override
  public void killJob(JobID jobid) throws IOException {
    try {
      job(jobid).kill(engine.killWaitMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while killing " + jobid);
    }
  }

  @Override
  public boolean killTask(TaskAttemptID taskId, boolean shouldFail) throws IOException {
    return job(taskId.getJobID()).killTask(taskId, shouldFail);
  }

  @Override
  public TaskReport[] getTaskReports(JobID jobid, TaskType type) throws IOException {
    return job(jobid).taskReports(type);
  }

  @Override
  public TaskCompletionEvent[] getTaskCompletionEvents(JobID jobid, int fromEventId, int maxEvents)
      throws IOException {
    return job(jobid).events(fromEventId, maxEvents);
  }

  @Override
  public String[] getTaskDiagnostics(TaskAttemptID taskId) throws IOException {
    return job(taskId.getJobID()).diagnostics(taskId);
  }

  @Override
  public JobStatus[] getAllJobs() {
    List<JobStatus> all = new ArrayList<>();
    for (JobRun job : engine.jobs()) {
      all.add(job.status());
    }
    return all.toArray(new JobStatus[0]);
  }

  @Override
  public ClusterMetrics getClusterMetrics() {
    int slots = engine.pool().slots();
    int runningMaps = engine.runningTasks(TaskType.MAP);
    int runningReduces = engine.runningTasks(TaskType.REDUCE);
    return new ClusterMetrics(runningMaps, runningReduces, runningMaps, runningReduces, 0, 0, slots,
        slots, engine.submittedJobs(), 1, 0, 0);
  }

  @Override
  public Cluster.JobTrackerStatus getJobTrackerStatus() {
    return Cluster.JobTrackerStatus.RUNNING;
  }

  @Override
  public long getTaskTrackerExpiryInterval() {
    return 0;
  }

  @Override
  public AccessControlList getQueueAdmins(String queueName) {
    return new AccessControlList(" ");
  }

  @Override
  public void setJobPriority(JobID jobid, String priority) {
    // one shared pool, scheduled fairly; priorities are not used
  }

  @Override
  public String getFilesystemName() throws IOException {
    return FileSystem.get(conf).getUri().toString();
  }

  @Override
  public TaskTrackerInfo[] getActiveTrackers() {
    return new TaskTrackerInfo[] {new TaskTrackerInfo("vivace-embedded")};
  }

  @Override
  public TaskTrackerInfo[] getBlacklistedTrackers() {
    return new TaskTrackerInfo[0];
  }

  /** The job client stages through the file system of this directory, so it must be the staging one. */
  @Override
  public String getSystemDir() throws IOException {
    return onStagingFileSystem(new Path(conf.get("hadoop.tmp.dir", "/tmp"), "mapred/system"));
  }

  @Override
  public String getStagingAreaDir() throws IOException {
    Path root = new Path(conf.get(STAGING_ROOT, conf.get("hadoop.tmp.dir", "/tmp") + "/mapred/staging"));
    String user = UserGroupInformation.getCurrentUser().getShortUserName();
    return onStagingFileSystem(new Path(root, user + "/.staging"));
  }

  /** A local directory moves to {@link StagingFileSystem}; others (e.g. on HDFS) stay as they are. */
  private String onStagingFileSystem(Path dir) throws IOException {
    FileSystem fs = dir.getFileSystem(conf);
    Path qualified = fs.makeQualified(dir);
    if ("file".equals(fs.getScheme())) {
      return StagingFileSystem.of(qualified.toUri().getPath()).toString();
    }
    return qualified.toString();
  }

  @Override
  public String getJobHistoryDir() {
    return JobHistoryWriter.historyDir(conf).getAbsolutePath();
  }

  @Override
  public QueueInfo[] getQueues() {
    return new QueueInfo[0];
  }

  @Override
  public QueueInfo getQueue(String queueName) {
    return null;
  }

  @Override
  public QueueAclsInfo[] getQueueAclsForCurrentUser() {
    return new QueueAclsInfo[0];
  }

  @Override
  public QueueInfo[] getRootQueues() {
    return new QueueInfo[0];
  }

  @Override
  public QueueInfo[] getChildQueues(String queueName) {
    return new QueueInfo[0];
  }

  @Override
  public Token<DelegationTokenIdentifier> getDelegationToken(Text renewer) {
    return null;
  }

  @Override
  public long renewDelegationToken(Token<DelegationTokenIdentifier> token) {
    return 0;
  }

  @Override
  public void cancelDelegationToken(Token<DelegationTokenIdentifier> token) {
  }

  @Override
  public LogParams getLogFileParams(JobID jobID, TaskAttemptID taskAttemptID) {
    return null;
  }

  @Override
  public long getProtocolVersion(String protocol, long clientVersion) {
    return ClientProtocol.versionID;
  }

  @Override
  public ProtocolSignature getProtocolSignature(String protocol, long clientVersion, int clientMethodsHash) {
    return ProtocolSignature.getProtocolSignature(clientMethodsHash, ClientProtocol.versionID,
        ClientProtocol.class);
  }
}
