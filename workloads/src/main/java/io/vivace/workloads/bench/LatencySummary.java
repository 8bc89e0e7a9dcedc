package io.vivace.workloads.bench;

import java.util.Arrays;
import java.util.List;

/** Min, median, 90th percentile and max of a list of samples (milliseconds). */
public record LatencySummary(int count, double min, double median, double p90, double max) {

  public static LatencySummary of(List<Double> samples) {
    if (samples.isEmpty()) {
      throw new IllegalArgumentException("no samples");
    }
    double[] sorted = samples.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    int n = sorted.length;
    double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    return new LatencySummary(n, sorted[0], median, sorted[nearestRank(0.9, n)], sorted[n - 1]);
  }

  /** The index of the p-th percentile by the nearest-rank method. */
  private static int nearestRank(double p, int n) {
    return Math.max(0, (int) Math.ceil(p * n) - 1);
  }
}
