package io.vivace.cluster.executor;

import io.vivace.cluster.rpc.AttemptAssignment;
import io.vivace.cluster.security.SessionSecret;
import io.vivace.exec.AttemptRun;
import io.vivace.shuffle.ShuffleInput;
import io.vivace.shuffle.ShuffleMemory;
import org.apache.hadoop.conf.Configuration;

/** An executor's side of the shuffle across hosts: serving its maps' outputs, fetching a reduce's. */
final class ExecutorShuffle {

  ExecutorShuffle(Configuration conf, String host, ExecutorJobs jobs, ShuffleMemory memory, SessionSecret secret) {
  }

  int port() {
    return 0;
  }

  ShuffleInput inputFor(ExecutorJobs.Job job, AttemptAssignment assignment, AttemptRun run) {
    throw new UnsupportedOperationException("reduces on a session need the network shuffle (not wired yet)");
  }

  int[] lostMaps(Throwable failure) {
    return new int[0];
  }

  void close() {
  }
}
