package io.vivace.scheduler;

import java.util.List;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * The one rule by which jobs sharing slots take turns, for the embedded engine's worker threads
 * ({@code exec/WorkerPool}) and a session's executors ({@code cluster/session/Dispatcher}) alike: a
 * free slot goes to the job running the fewest attempts; among jobs running as many, round robin,
 * starting after the job served last. A job that has nothing for this slot (no work queued, or
 * nothing that may run there) is passed over for the next in that order. Not thread-safe: used
 * under its owner's lock.
 *
 * @param <J> what a job is to the owner (a queue, a job's executor)
 */
public final class FairOrder<J> {

  private final ToIntFunction<J> running;
  /** Where the next round-robin turn starts: the index after the job served last. */
  private int cursor;

  /** {@code running}: how many attempts a job runs now. */
  public FairOrder(ToIntFunction<J> running) {
    this.running = running;
  }

  /**
   * Offers the slot to {@code jobs} in turn, fewest running first, and returns the first non-null
   * answer of {@code offer} (remembering that job as served); null when no job takes it.
   */
  public <R> R pick(List<J> jobs, Function<J, R> offer) {
    int n = jobs.size();
    if (n == 0) {
      return null;
    }
    int[] counts = new int[n];
    boolean[] offered = new boolean[n];
    for (int i = 0; i < n; i++) {
      counts[i] = running.applyAsInt(jobs.get(i));
    }
    for (int round = 0; round < n; round++) {
      int best = -1;
      for (int k = 0; k < n; k++) {
        int i = (cursor + k) % n;
        if (!offered[i] && (best < 0 || counts[i] < counts[best])) {
          best = i;
        }
      }
      offered[best] = true;
      R taken = offer.apply(jobs.get(best));
      if (taken != null) {
        cursor = best + 1;
        return taken;
      }
    }
    return null;
  }
}
