package io.vivace.shuffle.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The executor's memory of nonces, on the clock values it is given. */
class ReplayGuardTest {

  private static final long T0 = 1_700_000_000_000L;

  @Test
  void aNonceIsAcceptedOnceWithinTheWindowEitherWay() {
    ReplayGuard guard = new ReplayGuard();
    assertEquals(ReplayGuard.Verdict.FRESH, guard.check(new RequestStamp(T0, "a"), T0 + ReplayGuard.WINDOW_MS));
    assertEquals(ReplayGuard.Verdict.REPLAYED, guard.check(new RequestStamp(T0, "a"), T0 + 1));
    assertEquals(ReplayGuard.Verdict.REPLAYED, guard.check(new RequestStamp(T0 + 5, "a"), T0 + 1),
        "the nonce, not the time, makes a request new");
    assertEquals(ReplayGuard.Verdict.FRESH, guard.check(new RequestStamp(T0 + ReplayGuard.WINDOW_MS, "b"), T0));
    assertEquals(ReplayGuard.Verdict.STALE, guard.check(new RequestStamp(T0, "c"), T0 + ReplayGuard.WINDOW_MS + 1));
    assertEquals(ReplayGuard.Verdict.STALE, guard.check(new RequestStamp(T0 + ReplayGuard.WINDOW_MS + 1, "d"), T0));
    assertEquals(2, guard.remembered(), "stale requests leave no nonce behind");
  }

  @Test
  void noncesWhoseRequestsWentStaleAreForgotten() {
    ReplayGuard guard = new ReplayGuard();
    for (int i = 0; i < 3000; i++) {
      assertEquals(ReplayGuard.Verdict.FRESH, guard.check(new RequestStamp(T0, "old" + i), T0));
    }
    long later = T0 + ReplayGuard.WINDOW_MS + 1;
    for (int i = 0; i < 3000; i++) {
      assertEquals(ReplayGuard.Verdict.FRESH, guard.check(new RequestStamp(later, "new" + i), later));
    }
    assertTrue(guard.remembered() <= 3000 + 1024, "the old nonces went: " + guard.remembered() + " remembered");
    assertEquals(ReplayGuard.Verdict.REPLAYED, guard.check(new RequestStamp(later, "new0"), later));
    assertEquals(ReplayGuard.Verdict.STALE, guard.check(new RequestStamp(T0, "old0"), later),
        "a forgotten nonce's request is refused by its time");
  }
}
