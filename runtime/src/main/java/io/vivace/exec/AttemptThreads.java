package io.vivace.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * Attempts running on worker threads of this JVM ({@link WorkerPool}), and giving up on those asked
 * to stop that have not after a grace: their worker is abandoned (a new one takes its slot) and
 * whatever they do later is dropped. Used by the embedded engine's executor and by a session's
 * executors alike.
 */
public final class AttemptThreads<T> {

  /** An attempt on its worker, in the unit of work that runs it. */
  public final class Entry {
    private final AttemptRun run;
    private final T attempt;
    private final Thread worker;
    private final Runnable unit;
    private volatile long stopAskedNanos;
    private boolean abandoned;

    private Entry(AttemptRun run, T attempt, Runnable unit) {
      this.run = run;
      this.attempt = attempt;
      this.worker = Thread.currentThread();
      this.unit = unit;
    }

    public AttemptRun run() {
      return run;
    }

    /** What the caller knows the attempt as. */
    public T attempt() {
      return attempt;
    }

    public Thread worker() {
      return worker;
    }

    /** Asks the attempt to stop; the grace runs from the first time it was asked. */
    public void stop() {
      if (stopAskedNanos == 0) {
        stopAskedNanos = System.nanoTime();
      }
      run.stop();
    }

    /** Whether it was given up on (its end was reported already; drop its result). */
    public boolean abandoned() {
      synchronized (AttemptThreads.this) {
        return abandoned;
      }
    }
  }

  private final WorkerPool pool;
  private final List<Entry> running = new ArrayList<>();

  public AttemptThreads(WorkerPool pool) {
    this.pool = pool;
  }

  /** Records the attempt the calling worker runs in {@code unit}. */
  public synchronized Entry add(AttemptRun run, T attempt, Runnable unit) {
    Entry entry = new Entry(run, attempt, unit);
    running.add(entry);
    return entry;
  }

  public synchronized void remove(Entry entry) {
    running.remove(entry);
  }

  public synchronized List<Entry> all() {
    return new ArrayList<>(running);
  }

  /** Abandons the attempts asked to stop more than {@code graceNanos} ago that have not; returns them. */
  public synchronized List<Entry> abandonOverdue(long now, long graceNanos) {
    List<Entry> overdue = new ArrayList<>();
    for (Entry e : running) {
      long asked = e.stopAskedNanos;
      if (asked != 0 && !e.abandoned && now - asked > graceNanos && pool.abandon(e.worker, e.unit)) {
        e.abandoned = true;
        overdue.add(e);
      }
    }
    return overdue;
  }
}
