package io.vivace.cluster.executor;

import io.vivace.cluster.rpc.AttemptAssignment;
import io.vivace.cluster.security.SessionKeys;
import io.vivace.cluster.security.SessionSecret;
import io.vivace.exec.AttemptRun;
import io.vivace.shuffle.ShuffleMemory;
import io.vivace.shuffle.net.ClientTls;
import io.vivace.shuffle.net.FetchSettings;
import io.vivace.shuffle.net.FetchedShuffleInput;
import io.vivace.shuffle.net.MapOutputLostException;
import io.vivace.shuffle.net.MapOutputServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;

/**
 * An executor's side of the shuffle across hosts ({@code shuffle/net}): its server of the map
 * outputs it holds, and each of its reduces' fetches from the executors holding theirs, both
 * authenticated with the job's key from the session's secret, both over TLS when the session's
 * configuration sets {@code mapreduce.shuffle.ssl.enabled} (a job's own value is not read: every
 * executor's server must speak what every fetch speaks).
 */
final class ExecutorShuffle implements AutoCloseable {

  private final ExecutorJobs jobs;
  private final ShuffleMemory memory;
  private final SessionSecret secret;
  private final MapOutputServer server;
  private final ClientTls tls;

  ExecutorShuffle(Configuration conf, String host, ExecutorJobs jobs, ShuffleMemory memory, SessionSecret secret)
      throws IOException {
    this.jobs = jobs;
    this.memory = memory;
    this.secret = secret;
    this.tls = ClientTls.startIfEnabled(conf);
    try {
      this.server = MapOutputServer.start(conf, new InetSocketAddress(host, 0), jobs::output,
          jobId -> SessionKeys.jobShuffleKey(secret, jobId));
    } catch (IOException | RuntimeException e) {
      if (tls != null) {
        tls.close();
      }
      throw e;
    }
  }

  int port() {
    return server.port();
  }

  /** How the shuffle travels, for the executor's log: over TLS, or in clear. */
  String transport() {
    return server.encrypted() ? "TLS (mapreduce.shuffle.ssl.enabled)" : "in clear";
  }

  /** Where a reduce attempt reads its map outputs: fetched from the executors holding them. */
  FetchedShuffleInput inputFor(ExecutorJobs.Job job, AttemptAssignment assignment, AttemptRun run) {
    return new FetchedShuffleInput(assignment.jobId(), assignment.index(), assignment.mapOutputs(),
        job.local().env().mapOutputCodec(), memory, run.scratchDir(),
        SessionKeys.jobShuffleKey(secret, assignment.jobId()), run.reporter(),
        FetchSettings.of(job.local().submission().conf()), tls);
  }

  /** The maps whose outputs a failed attempt could not fetch (they must run again), if that is why it failed. */
  static int[] lostMaps(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof MapOutputLostException lost) {
        return lost.maps().stream().mapToInt(Integer::intValue).toArray();
      }
    }
    return new int[0];
  }

  @Override
  public void close() {
    server.close();
    if (tls != null) {
      tls.close();
    }
  }
}
