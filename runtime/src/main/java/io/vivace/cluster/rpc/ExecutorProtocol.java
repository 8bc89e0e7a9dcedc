package io.vivace.cluster.rpc;

import io.vivace.submit.JobDescription;
import java.io.IOException;
import org.apache.hadoop.ipc.VersionedProtocol;

/**
 * How a session's executors talk to its application master, over Hadoop's RPC: an executor joins,
 * asks for work (the call waits until there is some, or up to {@code waitMillis}, and carries the
 * statuses of every attempt it holds), reads a job submitted by description from the session, and
 * reports the ends of its attempts as they end, in batches (every end since its previous report),
 * holding each attempt until the report that carries it returns.
 */
public interface ExecutorProtocol extends VersionedProtocol {

  long versionID = 5L;

  /** Joins the session; returns the executor's id. */
  int register(ExecutorInfo info) throws IOException;

  /** Work for the executor: returns as soon as there is some, or after {@code waitMillis}. */
  Assignments nextWork(int executorId, long waitMillis, StatusBatch running) throws IOException;

  /**
   * Whether the attempt may commit its task's output (Hadoop's {@code canCommit}): false when
   * another attempt of its task (a speculative twin) commits, or it is no longer the session's.
   */
  boolean mayCommit(int executorId, String attemptId) throws IOException;

  /**
   * The description of job {@code jobId} the session holds while the job runs; one that is not
   * {@link JobDescription#isPresent present} when the job was staged on the cluster's file system
   * (its attempts name the folder) or is over.
   */
  JobDescription describedJob(int executorId, String jobId) throws IOException;

  /** Attempts ended: every attempt that ended since the executor's previous report, in the order they ended. */
  void attemptsDone(int executorId, AttemptResults results) throws IOException;
}
