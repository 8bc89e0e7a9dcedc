package io.vivace.scheduler;

import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobPriority;
import org.apache.hadoop.mapreduce.JobStatus;

/**
 * A {@link JobStatus} snapshot; the subclass exists only to reach JobStatus's protected setters. It
 * travels to a session's clients over Hadoop's RPC as itself, so it has the public no-argument
 * constructor a {@code Writable} needs.
 */
public final class JobStatusSnapshot extends JobStatus {

  public JobStatusSnapshot() {
  }

  JobStatusSnapshot(JobID id, float setup, float map, float reduce, float cleanup, State state,
                  String user, String jobName, String queue, String jobFile, String trackingUrl) {
    super(id, setup, map, reduce, cleanup, state, JobPriority.NORMAL, user, jobName, queue, jobFile,
        trackingUrl, false);
  }

  void times(long submit, long start, long finish) {
    setStartTime(start == 0 ? submit : start);
    setFinishTime(finish);
  }

  void failure(String info) {
    setFailureInfo(info);
  }
}
