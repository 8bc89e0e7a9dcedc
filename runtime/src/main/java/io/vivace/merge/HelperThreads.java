package io.vivace.merge;

/** The threads a merge or a reduce's output starts beside the task's own: daemons in the task's class loader. */
public final class HelperThreads {

  private HelperThreads() {
  }

  /** Starts {@code body} on a daemon thread named {@code name}, in the caller's context class loader. */
  public static Thread start(Runnable body, String name) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    thread.setContextClassLoader(Thread.currentThread().getContextClassLoader());
    thread.start();
    return thread;
  }

  /** Waits for {@code thread} to end even if interrupted; the interrupt is kept for the caller. */
  public static void join(Thread thread) {
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
