package io.vivace.client;

import io.vivace.engine.Engine;
import io.vivace.history.JobHistoryWriter;
import io.vivace.scheduler.JobRun;
import io.vivace.scheduler.JobsClientProtocol;
import io.vivace.submit.Submission;
import io.vivace.submit.SubmissionLoader;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.ClusterMetrics;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskTrackerInfo;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;

/** Hadoop's job client protocol served in-process by the embedded {@link Engine}. */
public final class VivaceClientProtocol extends JobsClientProtocol {

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

  @Override
  protected JobRun job(JobID id) {
    return engine.job(id);
  }

  @Override
  protected List<JobRun> jobs() {
    return engine.jobs();
  }

  @Override
  protected long killWaitMillis() {
    return engine.killWaitMillis();
  }

  @Override
  public ClusterMetrics getClusterMetrics() {
    int slots = engine.pool().slots();
    int runningMaps = runningTasks(TaskType.MAP);
    int runningReduces = runningTasks(TaskType.REDUCE);
    return new ClusterMetrics(runningMaps, runningReduces, runningMaps, runningReduces, 0, 0, slots,
        slots, engine.submittedJobs(), 1, 0, 0);
  }

  @Override
  public String getFilesystemName() throws IOException {
    return FileSystem.get(conf).getUri().toString();
  }

  @Override
  public TaskTrackerInfo[] getActiveTrackers() {
    return new TaskTrackerInfo[] {new TaskTrackerInfo("vivace-embedded")};
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
}
