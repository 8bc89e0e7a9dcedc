package io.vivace.driver;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;

/**
 * A job submitted through the {@link JobRecorder}: what the client saw (submission, completion),
 * and a snapshot of what its framework reports once it is complete. A job on Tez
 * ({@code yarn-tez}) has its counters and tasks from Tez's history ({@link TezHistory}), since
 * Tez's MapReduce client reports none.
 */
public final class RecordedJob {

  private final String framework;
  private final JobID id;
  private final ClientProtocol client;
  private final long submitMs;
  private final SubmittedConfiguration configuration;
  private volatile Long doneMs;

  // The snapshot, once taken of a complete job.
  private JobStatus finalStatus;
  private Counters finalCounters;
  private List<TaskSnapshot> tasks = List.of();
  private Long historyStartMs;
  private Long historyFinishMs;

  RecordedJob(String framework, JobID id, ClientProtocol client, long submitMs,
      SubmittedConfiguration configuration) {
    this.framework = framework;
    this.id = id;
    this.client = client;
    this.submitMs = submitMs;
    this.configuration = configuration;
  }

  public String framework() {
    return framework;
  }

  public JobID id() {
    return id;
  }

  /** The client's clock just before it handed the job to the framework. */
  public long submitMs() {
    return submitMs;
  }

  /** The client's clock when a status it asked for first said complete; null if none did. */
  public Long doneMs() {
    return doneMs;
  }

  /** The job's configuration as submitted; null when its job.xml could not be read. */
  public SubmittedConfiguration configuration() {
    return configuration;
  }

  void seenComplete(long now) {
    if (doneMs == null) {
      doneMs = now;
    }
  }

  /** The job's status: the final one once the snapshot is taken, else the framework's current. */
  public synchronized JobStatus status() throws IOException, InterruptedException {
    return finalStatus != null ? finalStatus : client.getJobStatus(id);
  }

  /** The job's counters, as the framework reports them to {@code Job.getCounters()}. */
  public synchronized Counters counters() throws IOException, InterruptedException {
    if (finalCounters != null) {
      return finalCounters;
    }
    Counters counters = client.getJobCounters(id);
    if (counters == null) {
      throw new IOException(framework + " returned no counters for " + id);
    }
    return counters;
  }

  /** When the job started: its status's time, else its framework's history's; null if neither. */
  public synchronized Long startMs() throws IOException, InterruptedException {
    Long reported = Times.orNull(status().getStartTime());
    return reported != null ? reported : historyStartMs;
  }

  /** When the job finished: its status's time, else its framework's history's; null if neither. */
  public synchronized Long finishMs() throws IOException, InterruptedException {
    Long reported = Times.orNull(status().getFinishTime());
    return reported != null ? reported : historyFinishMs;
  }

  /** Map then reduce task reports of the snapshot; empty where the framework keeps none. */
  public synchronized List<TaskSnapshot> tasks() {
    return tasks;
  }

  /**
   * Keeps the final status, counters and task reports of a complete job, once; a job that is not
   * complete yet is left to a later call. Best effort: what the framework no longer answers stays
   * unknown.
   */
  synchronized void snapshot() {
    if (finalStatus != null) {
      return;
    }
    try {
      JobStatus status = client.getJobStatus(id);
      if (status == null || !status.isJobComplete()) {
        return;
      }
      TezHistory.Reports tez = TezOnCluster.FRAMEWORK_NAME.equals(framework)
          ? TezHistory.read(configurationOf(configuration), id) : null;
      if (tez != null) {
        finalCounters = tez.counters();
        tasks = tez.tasks();
        historyStartMs = tez.startMs();
        historyFinishMs = tez.finishMs();
      } else {
        finalCounters = client.getJobCounters(id);
        List<TaskSnapshot> reports = new ArrayList<>();
        addReports(reports, TaskType.MAP);
        addReports(reports, TaskType.REDUCE);
        tasks = Collections.unmodifiableList(reports);
      }
      finalStatus = status;
    } catch (IOException | RuntimeException | LinkageError e) {
      // leave the snapshot to a later call; what never arrives stays unknown
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The submitted job's configuration as a Hadoop one (empty when it could not be read). */
  private static Configuration configurationOf(SubmittedConfiguration submitted) {
    Configuration conf = new Configuration(false);
    if (submitted != null) {
      submitted.values().forEach(conf::set);
    }
    return conf;
  }

  private void addReports(List<TaskSnapshot> out, TaskType type)
      throws IOException, InterruptedException {
    TaskReport[] reports = client.getTaskReports(id, type);
    if (reports != null) {
      for (TaskReport report : reports) {
        out.add(TaskSnapshot.of(report, type));
      }
    }
  }

  @Override
  public String toString() {
    return framework + ":" + id;
  }
}
