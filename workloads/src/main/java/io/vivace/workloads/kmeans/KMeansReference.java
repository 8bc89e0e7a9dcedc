package io.vivace.workloads.kmeans;

import java.util.ArrayList;
import java.util.List;

/** K-means in one process, as {@link KMeans} computes it: what the jobs are checked against. */
public final class KMeansReference {

  private KMeansReference() {}

  /** Lloyd's iterations from {@code initial}, with KMeans's stopping rule. */
  public static KMeans.Result cluster(List<double[]> points, List<double[]> initial,
      int iterations, double convergeDist) {
    List<double[]> centroids = initial;
    double movement = Double.MAX_VALUE;
    int done = 0;
    int dims = initial.get(0).length;
    while (done < iterations && movement > convergeDist) {
      double[][] sums = new double[centroids.size()][dims];
      long[] counts = new long[centroids.size()];
      for (double[] point : points) {
        int nearest = Points.nearest(point, centroids);
        counts[nearest]++;
        for (int d = 0; d < dims; d++) {
          sums[nearest][d] += point[d];
        }
      }
      List<double[]> next = new ArrayList<>(centroids);
      for (int c = 0; c < counts.length; c++) {
        if (counts[c] > 0) {
          for (int d = 0; d < dims; d++) {
            sums[c][d] /= counts[c];
          }
          next.set(c, sums[c]);
        }
      }
      movement = movement(centroids, next);
      centroids = next;
      done++;
    }
    return new KMeans.Result(centroids, done, movement);
  }

  /** The largest Euclidean distance any centroid moved. */
  static double movement(List<double[]> before, List<double[]> after) {
    double most = 0;
    for (int c = 0; c < before.size(); c++) {
      double squared = 0;
      for (int d = 0; d < before.get(c).length; d++) {
        double delta = after.get(c)[d] - before.get(c)[d];
        squared += delta * delta;
      }
      most = Math.max(most, Math.sqrt(squared));
    }
    return most;
  }
}
