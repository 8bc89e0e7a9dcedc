package io.vivace.exec;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The warm worker threads shared by every job of the engine. Launching a task is a hand-off of a
 * {@link Runnable} to an already running daemon thread. When a slot frees, the next task comes from
 * the job that has the fewest tasks running (ties in round-robin order), so concurrent jobs share
 * the slots fairly. Each worker asks the kernel for the smallest timer slack ({@link TimerSlack}).
 */
public final class WorkerPool {

  /** The queue of one job's runnable work. */
  public static final class JobQueue {
    private final ArrayDeque<Runnable> pending = new ArrayDeque<>();
    private int running;
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition workAvailable = lock.newCondition();
  private final List<JobQueue> queues = new ArrayList<>();
  private final int slots;
  private int cursor;

  public WorkerPool(int slots) {
    if (slots < 1) {
      throw new IllegalArgumentException("vivace.slots must be at least 1, got " + slots);
    }
    this.slots = slots;
    for (int i = 0; i < slots; i++) {
      Thread worker = new Thread(this::work, "vivace-worker-" + i);
      worker.setDaemon(true);
      worker.start();
    }
  }

  public int slots() {
    return slots;
  }

  public JobQueue register() {
    JobQueue q = new JobQueue();
    lock.lock();
    try {
      queues.add(q);
    } finally {
      lock.unlock();
    }
    return q;
  }

  public void unregister(JobQueue q) {
    lock.lock();
    try {
      q.pending.clear();
      queues.remove(q);
    } finally {
      lock.unlock();
    }
  }

  public void enqueue(JobQueue q, Runnable work) {
    lock.lock();
    try {
      q.pending.addLast(work);
      workAvailable.signal();
    } finally {
      lock.unlock();
    }
  }

  /** Queues work ahead of the job's other queued work (retries run before tasks not yet started). */
  public void enqueueFirst(JobQueue q, Runnable work) {
    lock.lock();
    try {
      q.pending.addFirst(work);
      workAvailable.signal();
    } finally {
      lock.unlock();
    }
  }

  /** Drops the work of {@code q} that has not started; returns how many items were dropped. */
  public int clear(JobQueue q) {
    lock.lock();
    try {
      int n = q.pending.size();
      q.pending.clear();
      return n;
    } finally {
      lock.unlock();
    }
  }

  /** Total tasks waiting in all queues. */
  public int pending() {
    lock.lock();
    try {
      int n = 0;
      for (JobQueue q : queues) {
        n += q.pending.size();
      }
      return n;
    } finally {
      lock.unlock();
    }
  }

  private void work() {
    TimerSlack.minimiseForCurrentThread(); // tasks that sleep 1 ms should not sleep 1.1
    while (true) {
      JobQueue q;
      Runnable next;
      lock.lock();
      try {
        while ((q = pickQueue()) == null) {
          workAvailable.awaitUninterruptibly();
        }
        next = q.pending.pollFirst();
        q.running++;
      } finally {
        lock.unlock();
      }
      try {
        next.run();
      } catch (Throwable t) {
        // work items handle their own failures; never let a worker die
        t.printStackTrace();
      } finally {
        Thread.interrupted();
        lock.lock();
        try {
          q.running--;
        } finally {
          lock.unlock();
        }
      }
    }
  }

  /** The non-empty queue with the fewest running tasks, starting after the last one served. */
  private JobQueue pickQueue() {
    JobQueue best = null;
    int n = queues.size();
    int bestIndex = -1;
    for (int k = 0; k < n; k++) {
      int i = (cursor + k) % n;
      JobQueue q = queues.get(i);
      if (!q.pending.isEmpty() && (best == null || q.running < best.running)) {
        best = q;
        bestIndex = i;
      }
    }
    if (best != null) {
      cursor = bestIndex + 1;
    }
    return best;
  }
}
