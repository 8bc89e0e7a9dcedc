package io.vivace.scheduler;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobPriority;
import org.apache.hadoop.mapreduce.JobStatus;

/**
 * A {@link JobStatus} snapshot; the subclass exists to reach JobStatus's protected setters. It
 * travels to a session's clients over Hadoop's RPC as itself, so it has the public no-argument
 * constructor a {@code Writable} needs, and it carries the failure info, which JobStatus's own
 * {@code write} leaves out (a client would print a failed job's cause as "NA").
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

  /** What the job's work waits for (the scheduling info a client sees); empty when it does not. */
  void waiting(String info) {
    setSchedulingInfo(info);
  }

  @Override
  public synchronized void write(DataOutput out) throws IOException {
    super.write(out);
    Text.writeString(out, getFailureInfo());
  }

  @Override
  public synchronized void readFields(DataInput in) throws IOException {
    super.readFields(in);
    setFailureInfo(Text.readString(in));
  }
}
