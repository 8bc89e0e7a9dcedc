package io.vivace.shuffle.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The order a reduce's fetch threads take the maps in: each stays on the executor of its kept
 * connection while that executor has maps and no other has fewer threads, else moves to the least
 * served executor, round robin from the partition's.
 */
class FetchOrderTest {

  /** Map m on executor "e" + (m % executors). */
  private static FetchOrder order(int maps, int executors, int partition) {
    List<String> of = new ArrayList<>();
    for (int m = 0; m < maps; m++) {
      of.add("e" + (m % executors));
    }
    return new FetchOrder(of, partition);
  }

  @Test
  void aThreadKeepsTakingTheMapsOfItsConnectionsExecutorInMapOrder() {
    FetchOrder order = order(6, 1, 0);
    assertEquals(0, order.next(null, null));
    assertEquals(1, order.next("e0", "e0"));
    assertEquals(2, order.next(null, null), "a second thread shares the one executor");
    assertEquals(3, order.next("e0", "e0"));
    assertEquals(4, order.next("e0", "e0"));
    assertEquals(5, order.next("e0", "e0"));
    assertNull(order.next("e0", "e0"));
  }

  @Test
  void threadsSpreadOverTheExecutorsFromThePartitionsAndStayWhileNoneIsLeftWithout() {
    // e0 holds maps 0, 3, 6, 9; e1 1, 4, 7, 10; e2 2, 5, 8, 11
    FetchOrder order = order(12, 3, 1);
    assertEquals(1, order.next(null, null), "the first thread starts at the partition's executor");
    assertEquals(2, order.next(null, null));
    assertEquals(0, order.next(null, null));
    assertEquals(4, order.next("e1", "e1"), "one thread on each: the thread stays");
    assertEquals(5, order.next("e2", "e2"));
    assertEquals(3, order.next("e0", null), "a thread without a connection takes the least served, round robin");
  }

  @Test
  void aThreadWithoutItsConnectionOrWhoseExecutorIsDoneGoesToTheLeastServed() {
    FetchOrder order = order(8, 2, 0); // e0: 0, 2, 4, 6; e1: 1, 3, 5, 7
    assertEquals(0, order.next(null, null));
    assertEquals(1, order.next(null, null));
    assertEquals(2, order.next(null, null), "a third thread: e0, round robin");
    assertEquals(3, order.next("e0", null), "its connection closed, it leaves e0 for e1, round robin");
    assertEquals(4, order.next("e0", "e0"), "e0's last thread stays");
    assertEquals(5, order.next("e1", "e1"), "e1 has no fewer threads than e0: its thread stays");
    assertEquals(6, order.next("e0", "e0"));
    assertEquals(7, order.next("e0", "e0"), "e0 has no maps left: its thread moves to e1");
    assertNull(order.next("e1", "e1"));
  }

  @Test
  void aClearedOrderHasNoMoreMaps() {
    FetchOrder order = order(4, 2, 0);
    assertEquals(0, order.next(null, null));
    order.clear();
    assertNull(order.next("e0", "e0"));
  }
}
