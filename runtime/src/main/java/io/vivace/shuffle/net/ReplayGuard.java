package io.vivace.shuffle.net;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * An executor's defence against replayed map output requests: a request is accepted only if it
 * was sent within {@link #WINDOW_MS} of the executor's clock, and only once (its nonce is
 * remembered until its time leaves the window, when the time alone refuses it). Only requests
 * whose MAC was checked come here, so only holders of a job's key can fill the memory of nonces.
 */
final class ReplayGuard {

  /**
   * How far a request's time may be from the executor's clock, either way: Kerberos's default
   * clock skew, which a cluster's hosts are kept within.
   */
  static final long WINDOW_MS = 5 * 60_000;

  enum Verdict { FRESH, STALE, REPLAYED }

  /** Nonces accepted, with the time after which their request is stale anyway. */
  private final Map<String, Long> seen = new HashMap<>();
  private int sweepAt = 1024;

  /** Whether a request stamped {@code stamp} is fresh at {@code nowMs}; a fresh one is remembered. */
  synchronized Verdict check(RequestStamp stamp, long nowMs) {
    if (Math.abs(nowMs - stamp.sentAtMs()) > WINDOW_MS) {
      return Verdict.STALE;
    }
    if (seen.size() >= sweepAt) {
      forgetStale(nowMs);
    }
    return seen.putIfAbsent(stamp.nonce(), stamp.sentAtMs() + WINDOW_MS) == null ? Verdict.FRESH : Verdict.REPLAYED;
  }

  /** Nonces remembered. */
  synchronized int remembered() {
    return seen.size();
  }

  private void forgetStale(long nowMs) {
    for (Iterator<Long> expiries = seen.values().iterator(); expiries.hasNext(); ) {
      if (expiries.next() < nowMs) {
        expiries.remove();
      }
    }
    // sweeps cost in proportion to what they keep: at most one per as many new nonces as are kept
    sweepAt = Math.max(1024, 2 * seen.size());
  }
}
