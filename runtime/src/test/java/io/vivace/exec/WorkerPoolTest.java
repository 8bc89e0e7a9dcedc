package io.vivace.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vivace.engine.Engine;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The engine's shared worker slots ({@code vivace.slots}): exactly that many tasks run at once,
 * and jobs share the slots fairly whatever order their work arrived in. The engine itself is a
 * JVM-wide singleton, so the pool is tested directly with its slot count as the engine passes it.
 * Latches only sequence the work; the generous waits guard against a hang, they measure nothing.
 */
class WorkerPoolTest {

  private static final long GUARD_SECONDS = 30;

  /** Released after each test so that no pool thread stays blocked. */
  private final List<CountDownLatch> gates = new ArrayList<>();

  private CountDownLatch gate() {
    CountDownLatch gate = new CountDownLatch(1);
    gates.add(gate);
    return gate;
  }

  @AfterEach
  void releaseGates() {
    gates.forEach(CountDownLatch::countDown);
  }

  private static void await(CountDownLatch latch) {
    try {
      assertTrue(latch.await(GUARD_SECONDS, TimeUnit.SECONDS), "work did not arrive (hang guard)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(GUARD_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Workers sleep with the kernel's smallest timer slack, so a 1 ms sleep is not 1.05 ms; where
   * /proc does not say the slack (not Linux, or older than 4.6), there is nothing to check.
   */
  @Test
  void workersRunWithTheSmallestTimerSlack() throws Exception {
    long ownSlack = TimerSlack.currentThreadNanos();
    assumeTrue(ownSlack > 0, "this system does not show a thread's timer slack");
    assertNotEquals(TimerSlack.MINIMUM_NANOS, ownSlack, "the test thread keeps the default slack");
    WorkerPool pool = new WorkerPool(2);
    WorkerPool.JobQueue q = pool.register();
    List<Long> slacks = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch bothRan = new CountDownLatch(2);
    CountDownLatch release = gate();
    for (int i = 0; i < 2; i++) {
      pool.enqueue(q, () -> {
        slacks.add(TimerSlack.currentThreadNanos());
        bothRan.countDown();
        awaitQuietly(release); // holds this worker, so the other item runs on the other one
      });
    }
    await(bothRan);
    assertEquals(List.of(TimerSlack.MINIMUM_NANOS, TimerSlack.MINIMUM_NANOS), slacks);
    assertEquals(ownSlack, TimerSlack.currentThreadNanos(), "only the workers' own slack changes");
  }

  @Test
  void slotCountBelowOneIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> new WorkerPool(0));
  }

  @Test
  void exactlySlotsTasksRunAtOnce() {
    WorkerPool pool = new WorkerPool(3);
    assertEquals(3, pool.slots());
    WorkerPool.JobQueue q = pool.register();
    CountDownLatch release = gate();
    CountDownLatch threeStarted = new CountDownLatch(3);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger maxRunning = new AtomicInteger();
    Set<String> threads = Collections.synchronizedSet(new HashSet<>());
    CountDownLatch allDone = new CountDownLatch(12);
    for (int i = 0; i < 12; i++) {
      pool.enqueue(q, () -> {
        threads.add(Thread.currentThread().getName());
        maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
        threeStarted.countDown();
        awaitQuietly(release);
        running.decrementAndGet();
        allDone.countDown();
      });
    }
    await(threeStarted);
    // all slots are blocked: the other nine items can only wait
    assertEquals(9, pool.pending());
    assertEquals(3, running.get());
    release.countDown();
    await(allDone);
    assertEquals(3, maxRunning.get(), "never more tasks than slots");
    assertEquals(3, threads.size(), "work runs on the pool's own threads: " + threads);
    assertEquals(0, pool.pending());
  }

  @Test
  void singleSlotAlternatesBetweenTwoJobsWhateverTheEnqueueOrder() {
    WorkerPool pool = new WorkerPool(1);
    WorkerPool.JobQueue first = pool.register();
    WorkerPool.JobQueue second = pool.register();
    CountDownLatch blocker = gate();
    CountDownLatch blocking = new CountDownLatch(1);
    pool.enqueue(first, () -> {
      blocking.countDown();
      awaitQuietly(blocker);
    });
    await(blocking);
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch done = new CountDownLatch(20);
    // the first job enqueues all its work before the second enqueues anything
    for (int i = 0; i < 10; i++) {
      String name = "A" + i;
      pool.enqueue(first, () -> {
        order.add(name);
        done.countDown();
      });
    }
    for (int i = 0; i < 10; i++) {
      String name = "B" + i;
      pool.enqueue(second, () -> {
        order.add(name);
        done.countDown();
      });
    }
    blocker.countDown();
    await(done);
    assertEquals(20, order.size());
    for (int i = 1; i < order.size(); i++) {
      assertNotEquals(order.get(i - 1).charAt(0), order.get(i).charAt(0),
          "the jobs must take turns: " + order);
    }
    // each job's own work keeps its FIFO order
    assertEquals(List.of("A0", "A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9"),
        order.stream().filter(s -> s.startsWith("A")).toList());
    assertEquals(List.of("B0", "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9"),
        order.stream().filter(s -> s.startsWith("B")).toList());
  }

  @Test
  void aFreedSlotGoesToTheJobWithFewestRunningTasks() {
    WorkerPool pool = new WorkerPool(2);
    WorkerPool.JobQueue busy = pool.register();
    WorkerPool.JobQueue other = pool.register();
    WorkerPool.JobQueue late = pool.register();
    CountDownLatch longTask = gate();
    CountDownLatch otherTask = gate();
    CountDownLatch bothStarted = new CountDownLatch(2);
    pool.enqueue(busy, () -> {
      bothStarted.countDown();
      awaitQuietly(longTask);
    });
    pool.enqueue(other, () -> {
      bothStarted.countDown();
      awaitQuietly(otherTask);
    });
    await(bothStarted);
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch allDone = new CountDownLatch(10);
    for (int i = 0; i < 5; i++) {
      String name = "busy" + i;
      pool.enqueue(busy, () -> {
        order.add(name);
        allDone.countDown();
      });
    }
    for (int i = 0; i < 5; i++) {
      String name = "late" + i;
      pool.enqueue(late, () -> {
        order.add(name);
        allDone.countDown();
      });
    }
    // One slot frees while the busy job still holds the other: the late job, with nothing
    // running, wins it every time even though the busy job's work was queued first; the busy
    // job's queue is served once the late job has nothing left.
    otherTask.countDown();
    await(allDone);
    assertEquals(List.of("late0", "late1", "late2", "late3", "late4", "busy0", "busy1", "busy2", "busy3",
        "busy4"), new ArrayList<>(order));
    longTask.countDown();
  }

  @Test
  void clearDropsOnlyPendingWorkOfOneJob() {
    WorkerPool pool = new WorkerPool(1);
    WorkerPool.JobQueue a = pool.register();
    WorkerPool.JobQueue b = pool.register();
    CountDownLatch blocker = gate();
    CountDownLatch blocking = new CountDownLatch(1);
    pool.enqueue(a, () -> {
      blocking.countDown();
      awaitQuietly(blocker);
    });
    await(blocking);
    AtomicInteger ranA = new AtomicInteger();
    CountDownLatch bDone = new CountDownLatch(3);
    for (int i = 0; i < 4; i++) {
      pool.enqueue(a, ranA::incrementAndGet);
    }
    for (int i = 0; i < 3; i++) {
      pool.enqueue(b, bDone::countDown);
    }
    assertEquals(7, pool.pending());
    assertEquals(4, pool.clear(a));
    assertEquals(3, pool.pending());
    blocker.countDown();
    await(bDone);
    CountDownLatch marker = new CountDownLatch(1);
    pool.enqueue(a, marker::countDown);
    await(marker);
    assertEquals(0, ranA.get(), "cleared work never runs");
  }

  @Test
  void failingWorkDoesNotKillAWorker() {
    WorkerPool pool = new WorkerPool(1);
    WorkerPool.JobQueue q = pool.register();
    CountDownLatch done = new CountDownLatch(1);
    pool.enqueue(q, () -> {
      throw new IllegalStateException("thrown on purpose by WorkerPoolTest");
    });
    pool.enqueue(q, done::countDown);
    await(done); // the single worker survived and ran the next item
  }

  @Test
  void engineSizesItsPoolFromVivaceSlots(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
      throws Exception {
    // Engine.get() is a JVM-wide singleton; build private instances to see the setting applied
    java.lang.reflect.Constructor<Engine> make = Engine.class.getDeclaredConstructor(
        org.apache.hadoop.conf.Configuration.class);
    make.setAccessible(true);
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(false);
    conf.set("hadoop.tmp.dir", tmp.toString());
    conf.setInt("vivace.slots", 3);
    assertEquals(3, make.newInstance(conf).pool().slots());
    conf.unset("vivace.slots");
    assertEquals(Runtime.getRuntime().availableProcessors(), make.newInstance(conf).pool().slots(),
        "default: one slot per core");
  }
}
