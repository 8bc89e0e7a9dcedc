package io.vivace.cluster.executor;

import io.vivace.cluster.rpc.AttemptResult;
import io.vivace.cluster.rpc.AttemptResults;
import io.vivace.cluster.rpc.ExecutorProtocol;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the session's master of the ends of this executor's attempts, from a thread of its own: a
 * worker hands its attempt's result over and takes its next attempt at once, and the thread sends
 * every end handed over since its last call in one call. Once a call returns (or cannot be made),
 * each end it carried is handed to {@code reported}: until then the executor still holds the attempt.
 *
 * <p>The calls are never made by a worker: a stop asked for an attempt as it ends interrupts its
 * worker, and Hadoop's RPC client drops a call made by an interrupted thread, so that the master would
 * never hear of the end. An interrupt of the reporter's own thread (its close) is cleared for the
 * call under way, which is made again if it cut it (a few times at most).
 */
final class AttemptEndReporter implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(AttemptEndReporter.class);
  /** How many calls are made when each is cut by an interrupt. */
  private static final int TRIES = 3;
  private static final long CLOSE_WAIT_MILLIS = 10_000;

  private final ExecutorProtocol master;
  private final int executorId;
  private final Consumer<String> reported;
  private final LinkedBlockingQueue<AttemptResult> ended = new LinkedBlockingQueue<>();
  private final Thread thread;
  private volatile boolean closing;

  AttemptEndReporter(ExecutorProtocol master, int executorId, Consumer<String> reported) {
    this.master = master;
    this.executorId = executorId;
    this.reported = reported;
    this.thread = new Thread(this::run, "vivace-executor-reports");
    thread.setDaemon(true);
    thread.start();
  }

  /** Hands an attempt's end over to be reported; returns at once. */
  void report(AttemptResult result) {
    ended.add(result);
  }

  private void run() {
    List<AttemptResult> batch = new ArrayList<>();
    while (true) {
      try {
        AttemptResult first = closing ? ended.poll() : ended.take();
        if (first == null) {
          return;
        }
        batch.add(first);
      } catch (InterruptedException e) {
        if (!closing) {
          return;
        }
        continue; // closing: what is handed over still goes
      }
      ended.drainTo(batch);
      send(batch);
      batch.clear();
    }
  }

  private void send(List<AttemptResult> batch) {
    try {
      for (int tries = 1; ; tries++) {
        try {
          master.attemptsDone(executorId, new AttemptResults(batch));
          return;
        } catch (InterruptedIOException e) {
          if (e instanceof SocketTimeoutException || tries == TRIES) {
            failed(batch, e);
            return;
          }
          Thread.interrupted();
        } catch (IOException e) {
          failed(batch, e);
          return;
        }
      }
    } finally {
      for (AttemptResult result : batch) {
        reported.accept(result.attemptId());
      }
    }
  }

  /** A report that cannot be made is logged: the master then takes the executor for lost. */
  private static void failed(List<AttemptResult> batch, IOException e) {
    LOG.error("could not report the end of " + batch.stream().map(AttemptResult::attemptId).toList()
        + " to the session's master", e);
  }

  /** Reports what was handed over (waiting a while at most), then stops. */
  @Override
  public void close() throws InterruptedException {
    closing = true;
    thread.interrupt();
    thread.join(CLOSE_WAIT_MILLIS);
  }
}
