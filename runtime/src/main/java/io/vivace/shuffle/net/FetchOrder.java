package io.vivace.shuffle.net;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which map a fetch thread fetches next. Each executor's maps wait in map order; a thread that asks
 * names the executor of its kept connection, and takes that executor's next map as long as no
 * executor with maps left has fewer threads fetching from it, so that its requests go over one
 * connection while every executor keeps its share of the threads. Otherwise, and for a thread
 * without a connection, the next map is of the executor with the fewest threads, taken round robin
 * from one chosen by the partition. Not thread-safe.
 */
final class FetchOrder {

  /** Per executor ({@code host:port}), its maps not taken yet, and the threads fetching from it. */
  private final Map<String, Deque<Integer>> pending = new LinkedHashMap<>();
  private final Map<String, Integer> fetching = new LinkedHashMap<>();
  private final List<String> executors;
  private int nextExecutor;

  /** {@code executors.get(m)}: the {@code host:port} of map m's output. */
  FetchOrder(List<String> executors, int partition) {
    for (int m = 0; m < executors.size(); m++) {
      pending.computeIfAbsent(executors.get(m), e -> new ArrayDeque<>()).add(m);
      fetching.put(executors.get(m), 0);
    }
    this.executors = new ArrayList<>(pending.keySet());
    this.nextExecutor = this.executors.isEmpty() ? 0 : partition % this.executors.size();
  }

  /**
   * The next map for a thread that ended its fetch from executor {@code from} (null: none yet) and
   * keeps a connection to {@code connected} (null: none); null when every map was taken.
   */
  Integer next(String from, String connected) {
    if (from != null) {
      fetching.merge(from, -1, Integer::sum);
    }
    int fewest = Integer.MAX_VALUE;
    for (String e : executors) {
      if (!pending.get(e).isEmpty()) {
        fewest = Math.min(fewest, fetching.get(e));
      }
    }
    if (fewest == Integer.MAX_VALUE) {
      return null;
    }
    String chosen = null;
    if (connected != null && pending.containsKey(connected) && !pending.get(connected).isEmpty()
        && fetching.get(connected) == fewest) {
      chosen = connected;
    }
    for (int i = 0; chosen == null; i++) {
      String e = executors.get((nextExecutor + i) % executors.size());
      if (!pending.get(e).isEmpty() && fetching.get(e) == fewest) {
        chosen = e;
        nextExecutor = (nextExecutor + i + 1) % executors.size();
      }
    }
    fetching.merge(chosen, 1, Integer::sum);
    return pending.get(chosen).poll();
  }

  /** Takes no more maps: {@link #next} answers null from now on. */
  void clear() {
    pending.values().forEach(Deque::clear);
  }
}
