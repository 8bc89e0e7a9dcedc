package io.vivace.cluster.rpc;

import io.vivace.submit.JobDescription;
import java.io.IOException;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.security.Credentials;

/**
 * Hadoop's {@link ClientProtocol} as a session's clients speak it, and the session's own way to
 * submit a job. Its ClientProtocol calls are dispatched to the session's ClientProtocol; it exists
 * because Hadoop annotates ClientProtocol with the JobTracker's delegation-token selector, and which
 * of the class path's {@code SecurityInfo} providers Hadoop asks first depends on the order of the
 * jars. For this interface only {@link SessionSecurityInfo} answers, so the session's token is
 * always the one sent.
 */
public interface SessionClientProtocol extends ClientProtocol {

  /**
   * Submits job {@code jobId} from its description, sent in the call, instead of from a folder
   * staged on the cluster's file system (as {@link #submitJob} does): the session holds it for the
   * job's life and gives it to its executors.
   */
  JobStatus submitDescribedJob(JobID jobId, JobDescription description, Credentials credentials)
      throws IOException, InterruptedException;

  /**
   * Job {@code jobId}'s status once it has ended, or after {@code waitMillis} (at most a second) if
   * it has not; null when the session does not wait for it (the job is unknown, or as many calls
   * wait already as the session lets wait), whereupon the client asks {@link #getJobStatus} instead.
   */
  JobStatus awaitJobEnd(JobID jobId, long waitMillis) throws IOException, InterruptedException;
}
