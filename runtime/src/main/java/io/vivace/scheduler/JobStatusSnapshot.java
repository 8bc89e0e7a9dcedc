package io.vivace.scheduler;

import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobPriority;
import org.apache.hadoop.mapreduce.JobStatus;

/** A {@link JobStatus} snapshot; the subclass exists only to reach JobStatus's protected setters. */
final class JobStatusSnapshot extends JobStatus {

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
