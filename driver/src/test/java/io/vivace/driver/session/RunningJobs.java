package io.vivace.driver.session;

import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;

/** A session's jobs as a test follows them through Hadoop's client. */
final class RunningJobs {

  private RunningJobs() {
  }

  /** The session's running job (the one the test started), waiting up to three minutes for it. */
  static Job runningJob(Cluster session) throws Exception {
    for (int i = 0; i < 1800; i++) {
      for (JobStatus status : session.getAllJobStatuses()) {
        if (!status.isJobComplete()) {
          return session.getJob(status.getJobID());
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no job running on the session");
  }

  /** How many of the job's maps have succeeded, by its task completion events. */
  static int succeededMaps(Job job) throws Exception {
    int n = 0;
    for (TaskCompletionEvent event : job.getTaskCompletionEvents(0, 1000)) {
      if (event.isMapTask() && event.getStatus() == TaskCompletionEvent.Status.SUCCEEDED) {
        n++;
      }
    }
    return n;
  }
}
