package io.vivace.cluster.executor;

import io.vivace.cluster.rpc.ExecutorProtocol;
import io.vivace.cluster.security.SessionSecret;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;

/**
 * A session's executor ({@link ExecutorMain}'s own code: its workers, its jobs' folders, its shuffle
 * server on loopback) run on a thread of the test's JVM against a master the test gives it, the
 * session's real dispatcher without RPC: what runs in a YARN container, driven in milliseconds.
 */
public final class InJvmExecutor {

  private final Thread thread;
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  private InJvmExecutor(ExecutorProtocol master, Configuration conf, String container, int slots) {
    this.thread = new Thread(() -> {
      try {
        ExecutorMain.serve(master, conf, container, "127.0.0.1", slots, SessionSecret.generate());
      } catch (Throwable t) {
        failure.set(t);
      }
    }, "in-jvm-executor-" + container);
    thread.setDaemon(true);
  }

  /** Starts the executor of {@code container}; it joins the session at once. */
  public static InJvmExecutor start(ExecutorProtocol master, Configuration conf, String container, int slots) {
    InJvmExecutor executor = new InJvmExecutor(master, conf, container, slots);
    executor.thread.start();
    return executor;
  }

  /** Waits for the executor to end (once its session ended), failing if it does not or if it failed. */
  public void awaitEnd() throws InterruptedException {
    thread.join(TimeUnit.SECONDS.toMillis(30));
    if (thread.isAlive()) {
      throw new AssertionError(thread.getName() + " did not end with its session");
    }
    if (failure.get() != null) {
      throw new AssertionError(thread.getName() + " failed", failure.get());
    }
  }
}
