package io.vivace.cluster.executor;

import io.vivace.cluster.rpc.AttemptResult;
import io.vivace.cluster.rpc.ExecutorProtocol;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the session's master that an attempt of this executor ended, whatever interrupt the
 * reporting thread has. A stop asked for an attempt as it ends interrupts its worker, and Hadoop's
 * RPC client drops a call made by an interrupted thread ({@link InterruptedIOException}): the master
 * would never hear of the end, and the attempt's slot would stay taken there for the executor's
 * life. So the call is made with the interrupt cleared, again if one comes during it (a few times at
 * most), and the interrupt is kept for the thread afterwards.
 */
final class AttemptEndReporter {

  private static final Logger LOG = LoggerFactory.getLogger(AttemptEndReporter.class);
  /** How many calls are made when each is cut by an interrupt. */
  private static final int TRIES = 3;

  private final ExecutorProtocol master;
  private final int executorId;

  AttemptEndReporter(ExecutorProtocol master, int executorId) {
    this.master = master;
    this.executorId = executorId;
  }

  /** Reports the end; a failure to reach the master is logged (it then takes the executor for lost). */
  void report(AttemptResult result) {
    boolean interrupted = Thread.interrupted();
    try {
      for (int tries = 1; ; tries++) {
        try {
          master.attemptDone(executorId, result);
          return;
        } catch (InterruptedIOException e) {
          if (e instanceof SocketTimeoutException || tries == TRIES) {
            LOG.error("could not report the end of " + result.attemptId() + " to the session's master", e);
            return;
          }
          interrupted |= Thread.interrupted();
        } catch (IOException e) {
          LOG.error("could not report the end of " + result.attemptId() + " to the session's master", e);
          return;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
