package io.vivace.scheduler;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.mapreduce.Cluster;
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
import org.apache.hadoop.security.authorize.AccessControlList;
import org.apache.hadoop.security.token.Token;

/**
 * Hadoop's job client protocol over a set of Vivace jobs ({@link JobRun}s): status, counters,
 * kills, reports and events, the same whether the jobs run in this JVM's engine
 * ({@code client/VivaceClientProtocol}) or in a session on a cluster, whose application master serves this
 * protocol to remote clients. Subclasses say where jobs come from and where they are staged.
 */
public abstract class JobsClientProtocol implements ClientProtocol {

  /** The job of {@code id}, or null. */
  protected abstract JobRun job(JobID id);

  protected abstract List<JobRun> jobs();

  /** How long a kill waits for the job to end. */
  protected abstract long killWaitMillis();

  private JobRun known(JobID id) throws IOException {
    JobRun job = job(id);
    if (job == null) {
      throw new IOException("Unknown job " + id);
    }
    return job;
  }

  @Override
  public JobStatus getJobStatus(JobID jobid) {
    JobRun job = job(jobid);
    return job == null ? null : job.status();
  }

  @Override
  public Counters getJobCounters(JobID jobid) throws IOException {
    return known(jobid).counters();
  }

  @Override
  public void killJob(JobID jobid) throws IOException {
    try {
      known(jobid).kill(killWaitMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while killing " + jobid);
    }
  }

  @Override
  public boolean killTask(TaskAttemptID taskId, boolean shouldFail) throws IOException {
    return known(taskId.getJobID()).killTask(taskId, shouldFail);
  }

  @Override
  public TaskReport[] getTaskReports(JobID jobid, TaskType type) throws IOException {
    return known(jobid).taskReports(type);
  }

  @Override
  public TaskCompletionEvent[] getTaskCompletionEvents(JobID jobid, int fromEventId, int maxEvents)
      throws IOException {
    return known(jobid).events(fromEventId, maxEvents);
  }

  @Override
  public String[] getTaskDiagnostics(TaskAttemptID taskId) throws IOException {
    return known(taskId.getJobID()).diagnostics(taskId);
  }

  @Override
  public JobStatus[] getAllJobs() {
    List<JobStatus> all = new ArrayList<>();
    for (JobRun job : jobs()) {
      all.add(job.status());
    }
    return all.toArray(new JobStatus[0]);
  }

  /** Running tasks of every job, for cluster metrics. */
  protected int runningTasks(TaskType type) {
    int n = 0;
    for (JobRun job : jobs()) {
      n += job.runningTasks(type);
    }
    return n;
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
    // the slots are shared fairly; priorities are not used
  }

  @Override
  public TaskTrackerInfo[] getBlacklistedTrackers() {
    return new TaskTrackerInfo[0];
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
