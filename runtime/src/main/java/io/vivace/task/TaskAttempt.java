package io.vivace.task;

import io.vivace.commit.OutputCommitters;
import io.vivace.shuffle.ShuffleInput;
import io.vivace.localdisk.ScratchDir;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.TaskAttemptContextImpl;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskType;

/**
 * One attempt of a task: its own copy of the job configuration carrying the task keys Hadoop sets,
 * its contexts, its output committer and its scratch directory.
 */
public final class TaskAttempt {

  private final TaskEnvironment env;
  private final TaskAttemptID id;
  /** The id's text, formatted once: Hadoop formats ids with a NumberFormat on every toString(). */
  private final String idText;
  private final JobConf conf;
  private final TaskReporter reporter = new TaskReporter();
  private final ScratchDir scratchDir;
  private org.apache.hadoop.mapreduce.TaskAttemptContext newApiContext;
  private TaskAttemptContextImpl committerContext;
  private OutputCommitter committer;
  private ShuffleInput shuffleInput;
  private AttemptSerializations serializations;
  private CommitPermission commitPermission = CommitPermission.ALWAYS;

  /**
   * {@code idText} is {@code id.toString()} ({@link AttemptIdFormat}); {@code loader} loads the job's
   * classes for this attempt (its configuration's class loader).
   */
  public TaskAttempt(TaskEnvironment env, TaskAttemptID id, String idText, ClassLoader loader) {
    this.env = env;
    this.id = id;
    this.idText = idText;
    this.conf = TaskConf.of(env.jobConf());
    conf.setClassLoader(loader);
    boolean isMap = id.getTaskType() == TaskType.MAP;
    String taskIdText = taskIdText(idText);
    conf.set(MRJobConfig.TASK_ATTEMPT_ID, idText);
    conf.set(MRJobConfig.TASK_ID, taskIdText);
    conf.setBoolean(MRJobConfig.TASK_ISMAP, isMap);
    conf.setInt(MRJobConfig.TASK_PARTITION, id.getTaskID().getId());
    conf.set(MRJobConfig.ID, jobIdText(taskIdText));
    this.scratchDir = env.localDirs().scratch(idText);
  }

  /**
   * {@code attempt_<job>_m_000007_0} -> {@code task_<job>_m_000007}: Hadoop's ids are the same
   * parts joined by {@code _}, so cutting the text gives what formatting the id again would.
   */
  static String taskIdText(String attemptIdText) {
    return "task" + attemptIdText.substring("attempt".length(), attemptIdText.lastIndexOf('_'));
  }

  /** {@code task_<jt>_0001_m_000007} -> {@code job_<jt>_0001}. */
  static String jobIdText(String taskIdText) {
    String withoutIndex = taskIdText.substring(0, taskIdText.lastIndexOf('_'));
    return "job" + withoutIndex.substring("task".length(), withoutIndex.lastIndexOf('_'));
  }

  public TaskAttemptID id() {
    return id;
  }

  /** {@code id().toString()}, without formatting it again. */
  public String idText() {
    return idText;
  }

  public JobConf conf() {
    return conf;
  }

  public TaskReporter reporter() {
    return reporter;
  }

  /** The attempt's serialisations, made from its configuration on first use. */
  public AttemptSerializations serializations() {
    if (serializations == null) {
      serializations = new AttemptSerializations(conf);
    }
    return serializations;
  }

  public TaskEnvironment env() {
    return env;
  }

  /** Where a reduce reads its map outputs: this JVM's shuffle unless {@link #readShuffleFrom} said otherwise. */
  public ShuffleInput shuffleInput() {
    return shuffleInput != null ? shuffleInput : env.shuffle();
  }

  /** Makes a reduce read its map outputs from {@code input} (fetched from other hosts). */
  public void readShuffleFrom(ShuffleInput input) {
    this.shuffleInput = input;
  }

  public int partition() {
    return id.getTaskID().getId();
  }

  /**
   * The attempt's folder for spills and merges, on each local disk its files go to; made there by
   * the first file written.
   */
  public ScratchDir scratchDir() {
    return scratchDir;
  }

  /** The new-API context handed to input/output formats and user code. */
  public org.apache.hadoop.mapreduce.TaskAttemptContext newApiContext() {
    if (newApiContext == null) {
      newApiContext = new org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl(conf, id, reporter);
    }
    return newApiContext;
  }

  /**
   * The attempt's output committer (see {@link OutputCommitters#forTask}).
   */
  public OutputCommitter committer() throws Exception {
    if (committer == null) {
      committerContext = new TaskAttemptContextImpl(conf, id);
      boolean newApi = id.getTaskType() == TaskType.MAP ? conf.getUseNewMapper() : conf.getUseNewReducer();
      committer = OutputCommitters.forTask(conf, committerContext, newApiContext(), newApi);
    }
    return committer;
  }

  /** The context committer calls take; it is an old-API context so both APIs' committers accept it. */
  public TaskAttemptContextImpl committerContext() throws Exception {
    committer();
    return committerContext;
  }

  /** Sets the committer up for the attempt. */
  public void setupOutput() throws Exception {
    committer().setupTask(committerContext());
  }

  /** Makes the attempt ask {@code permission} before it commits its output. */
  public void commitOnlyIf(CommitPermission permission) {
    this.commitPermission = permission;
  }

  public void commitOutput() throws Exception {
    if (committer().needsTaskCommit(committerContext())) {
      if (!commitPermission.mayCommit()) {
        throw new java.io.IOException("Task attempt " + idText + " may not commit its output: another attempt of "
            + taskIdText(idText) + " commits (or committed) it");
      }
      committer().commitTask(committerContext());
    }
  }

  /** Drops what the attempt wrote: committer output, spills, merges. Never throws. */
  public void abort() {
    try {
      if (committer != null) {
        committer.abortTask(committerContext);
      }
    } catch (Exception ignored) {
      // best effort; the job's abort removes _temporary anyway
    }
    deleteScratch();
  }

  public void deleteScratch() {
    scratchDir.delete();
  }
}
