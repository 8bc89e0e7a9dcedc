package io.vivace.exec;

import io.vivace.sandbox.TaskScope;
import io.vivace.scheduler.FairOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The warm worker threads shared by every job of the engine. Launching a task is a hand-off of a
 * {@link Runnable} to an already running daemon thread. When a slot frees, the next task comes from
 * the job that has the fewest tasks running (ties in round-robin order: {@link FairOrder}, the rule
 * a session's executors are shared by too), so concurrent jobs share the slots fairly. Each worker asks the kernel for the smallest timer slack ({@link TimerSlack}).
 *
 * <p>A worker whose task will not stop (it ignores interrupts, or never returns to the framework) is
 * {@linkplain #abandon abandoned}: a new worker takes its slot at once, and the old thread ends when
 * its task returns, if ever. And when every slot has been held longer than the lending delay while a
 * job with work waiting runs fewer tasks than its fair share (the slots divided among the jobs with
 * work), the pool {@linkplain #lendIfStarved lends} that job an extra worker, up to as many extra as
 * there are slots: a job whose tasks hang, or run for long, never stops the others.
 */
public final class WorkerPool {

  /** The queue of one job's runnable work. */
  public static final class JobQueue {
    private final ArrayDeque<Runnable> pending = new ArrayDeque<>();
    private int running;
  }

  /** A worker thread; {@code lent} ones serve only jobs below their fair share, and end when none is. */
  private final class Worker extends Thread {
    final boolean lent;
    boolean abandoned;
    JobQueue serving;
    Runnable current;
    long busySinceNanos;

    Worker(String name, boolean lent) {
      super(name);
      this.lent = lent;
      setDaemon(true);
    }

    @Override
    public void run() {
      work(this);
    }
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition workAvailable = lock.newCondition();
  private final List<JobQueue> queues = new ArrayList<>();
  private final List<Worker> workers = new ArrayList<>();
  private final int slots;
  private final FairOrder<JobQueue> order = new FairOrder<>(q -> q.running);
  private int idle;
  private int lent;
  private int started;

  public WorkerPool(int slots) {
    if (slots < 1) {
      throw new IllegalArgumentException("vivace.slots must be at least 1, got " + slots);
    }
    this.slots = slots;
    lock.lock();
    try {
      for (int i = 0; i < slots; i++) {
        startWorker(false);
      }
    } finally {
      lock.unlock();
    }
  }

  public int slots() {
    return slots;
  }

  /** Worker threads lent beyond the slots right now. */
  public int lentWorkers() {
    lock.lock();
    try {
      return lent;
    } finally {
      lock.unlock();
    }
  }

  /** Worker threads that were abandoned and have not returned, and so still hold their thread. */
  public int abandonedWorkers() {
    lock.lock();
    try {
      int n = 0;
      for (Worker w : workers) {
        n += w.abandoned ? 1 : 0;
      }
      return n;
    } finally {
      lock.unlock();
    }
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

  /**
   * Gives up on {@code work}, which {@code thread} (a worker) is running: its job no longer counts
   * it, and a new worker takes its place. The thread ends when that work returns. Returns false when
   * the thread is not a worker of this pool running that work.
   */
  public boolean abandon(Thread thread, Runnable work) {
    lock.lock();
    try {
      if (!(thread instanceof Worker w) || w.abandoned || w.current != work || !workers.contains(w)) {
        return false;
      }
      w.abandoned = true;
      if (w.serving != null) {
        w.serving.running--;
        w.serving = null;
      }
      if (w.lent) {
        lent--;
      } else {
        startWorker(false);
      }
      workAvailable.signal();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Lends a worker when a job with work waiting runs fewer tasks than its fair share and every
   * worker has been busy for at least {@code heldNanos}; at most one per call, and never more lent
   * workers than slots. Returns whether it lent one.
   */
  public boolean lendIfStarved(long heldNanos) {
    lock.lock();
    try {
      if (idle > 0 || lent >= slots || starvedQueue() == null) {
        return false;
      }
      long now = System.nanoTime();
      for (Worker w : workers) {
        if (!w.abandoned && (w.serving == null || now - w.busySinceNanos < heldNanos)) {
          return false;
        }
      }
      lent++;
      startWorker(true);
      return true;
    } finally {
      lock.unlock();
    }
  }

  private void startWorker(boolean isLent) {
    Worker worker = new Worker((isLent ? "vivace-worker-lent-" : "vivace-worker-") + started++, isLent);
    workers.add(worker);
    worker.start();
  }

  private void work(Worker self) {
    TaskScope.restore(null); // a worker started from task code must not inherit that task's scope
    TimerSlack.minimiseForCurrentThread(); // tasks that sleep 1 ms should not sleep 1.1
    while (true) {
      JobQueue q;
      Runnable next;
      lock.lock();
      try {
        while ((q = self.lent ? starvedQueue() : pickQueue()) == null) {
          if (self.lent) {
            lent--;
            workers.remove(self);
            return;
          }
          idle++;
          workAvailable.awaitUninterruptibly();
          idle--;
        }
        next = q.pending.pollFirst();
        q.running++;
        self.serving = q;
        self.current = next;
        self.busySinceNanos = System.nanoTime();
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
          if (self.serving != null) {
            self.serving.running--;
            self.serving = null;
          }
          self.current = null;
          if (self.abandoned) {
            workers.remove(self);
            return;
          }
        } finally {
          lock.unlock();
        }
      }
    }
  }

  /** The queue whose work runs next, by the jobs' {@link FairOrder}; null when none has work. */
  private JobQueue pickQueue() {
    return order.pick(queues, q -> q.pending.isEmpty() ? null : q);
  }

  /** A queue with work waiting that runs fewer tasks than its fair share, the fewest first; or null. */
  private JobQueue starvedQueue() {
    int active = 0;
    for (JobQueue q : queues) {
      if (!q.pending.isEmpty() || q.running > 0) {
        active++;
      }
    }
    if (active == 0) {
      return null;
    }
    int share = Math.max(1, slots / active);
    JobQueue best = null;
    for (JobQueue q : queues) {
      if (!q.pending.isEmpty() && q.running < share && (best == null || q.running < best.running)) {
        best = q;
      }
    }
    return best;
  }
}
