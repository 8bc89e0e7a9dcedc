package io.vivace.cluster.session;

import io.vivace.submit.JobDescription;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The descriptions of the session's jobs that were submitted by description rather than staged on
 * the cluster's file system, held in the master's memory while each job runs: its executors read
 * the job from here.
 */
final class DescribedJobs {

  private static final JobDescription NONE = new JobDescription();

  private final Map<String, JobDescription> jobs = new ConcurrentHashMap<>();

  void hold(String jobId, JobDescription description) {
    jobs.put(jobId, description);
  }

  /** The job's description; one not present for a job staged as files, or over. */
  JobDescription of(String jobId) {
    return jobs.getOrDefault(jobId, NONE);
  }

  void release(String jobId) {
    jobs.remove(jobId);
  }
}
