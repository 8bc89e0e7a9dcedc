package io.vivace.workloads.finra;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The concurrency runner's arithmetic: the isolated query time (the median of the isolated runs,
 * so that the first query of a cold JVM does not set it), the think time between a stream's
 * queries (a fraction of the isolated time), the mean query time under concurrency over every
 * stream's queries, and its ratio to the isolated time (the study: 2.5 s alone vs 4.5 s five at a
 * time).
 */
public record ConcurrencySummary(List<Long> isolatedRunsMs, double thinkFraction,
    List<List<Long>> streamMs) {

  public ConcurrencySummary {
    if (isolatedRunsMs.isEmpty() || isolatedRunsMs.stream().anyMatch(ms -> ms <= 0)) {
      throw new IllegalArgumentException("isolated times must be positive: " + isolatedRunsMs);
    }
    isolatedRunsMs = List.copyOf(isolatedRunsMs);
    if (thinkFraction < 0) {
      throw new IllegalArgumentException("think fraction must not be negative: " + thinkFraction);
    }
    streamMs = streamMs.stream().map(List::copyOf).toList();
  }

  /** The median of the isolated runs (the mean of the middle two for an even count). */
  public static double median(List<Long> runsMs) {
    List<Long> sorted = runsMs.stream().sorted().toList();
    int middle = sorted.size() / 2;
    return sorted.size() % 2 == 1 ? sorted.get(middle)
        : (sorted.get(middle - 1) + sorted.get(middle)) / 2.0;
  }

  public double isolatedMs() {
    return median(isolatedRunsMs);
  }

  /** How long a stream waits after a query before issuing its next one. */
  public static long thinkMs(double isolatedMs, double fraction) {
    return Math.round(isolatedMs * fraction);
  }

  public long thinkMs() {
    return thinkMs(isolatedMs(), thinkFraction);
  }

  public int queries() {
    return streamMs.stream().mapToInt(List::size).sum();
  }

  /** Mean over every query of every stream; NaN when none ran. */
  public double meanConcurrentMs() {
    return streamMs.stream().flatMap(List::stream).mapToLong(Long::longValue).average()
        .orElse(Double.NaN);
  }

  /** Mean concurrent time over the isolated time: how much slower a query is among others. */
  public double ratio() {
    return meanConcurrentMs() / isolatedMs();
  }

  /** The figures as JSON-friendly names and values, times in seconds. */
  public Map<String, Object> figures() {
    Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("streams", streamMs.size());
    figures.put("queries", queries());
    figures.put("think_fraction", thinkFraction);
    figures.put("think_s", thinkMs() / 1e3);
    figures.put("isolated_s", isolatedMs() / 1e3);
    figures.put("isolated_runs_s", isolatedRunsMs.stream().map(ms -> ms / 1e3).toList());
    figures.put("concurrent_mean_s", meanConcurrentMs() / 1e3);
    figures.put("ratio", ratio());
    figures.put("query_s", streamMs.stream()
        .map(times -> times.stream().map(ms -> ms / 1e3).toList()).toList());
    return figures;
  }
}
