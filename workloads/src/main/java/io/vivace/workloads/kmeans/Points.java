package io.vivace.workloads.kmeans;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Points as text: one a line, coordinates separated by single spaces. Generated around {@code
 * clusters} centres drawn uniformly from {@code [0, 100)^dims} (the same for every map of a seed),
 * each coordinate Gaussian with standard deviation {@value #SPREAD} around its centre.
 */
public final class Points {

  static final double SPREAD = 4.0;
  static final double RANGE = 100.0;

  private Points() {}

  static double[][] centres(long seed, int clusters, int dims) {
    SplittableRandom random = new SplittableRandom(seed ^ 0xC1A55E5L);
    double[][] centres = new double[clusters][dims];
    for (double[] centre : centres) {
      for (int d = 0; d < dims; d++) {
        centre[d] = random.nextDouble() * RANGE;
      }
    }
    return centres;
  }

  /** A point near a random one of the centres, formatted with 4 decimals. */
  static String next(SplittableRandom random, double[][] centres) {
    double[] centre = centres[random.nextInt(centres.length)];
    StringBuilder line = new StringBuilder(centre.length * 9);
    for (int d = 0; d < centre.length; d++) {
      if (d > 0) {
        line.append(' ');
      }
      double coordinate = centre[d] + gaussian(random) * SPREAD;
      line.append(String.format(java.util.Locale.ROOT, "%.4f", coordinate));
    }
    return line.toString();
  }

  /** Box-Muller: one standard normal value. */
  private static double gaussian(SplittableRandom random) {
    double u = 1.0 - random.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextDouble());
  }

  /** The coordinates of a line, or null when it is not {@code dims} numbers. */
  public static double[] parse(String line, int dims) {
    String[] fields = line.trim().split(" +");
    if (fields.length != dims || fields[0].isEmpty()) {
      return null;
    }
    double[] point = new double[dims];
    try {
      for (int d = 0; d < dims; d++) {
        point[d] = Double.parseDouble(fields[d]);
      }
    } catch (NumberFormatException e) {
      return null;
    }
    return point;
  }

  public static String format(double[] point) {
    StringBuilder text = new StringBuilder();
    for (int d = 0; d < point.length; d++) {
      text.append(d > 0 ? " " : "").append(point[d]);
    }
    return text.toString();
  }

  /** Index of the nearest of {@code centroids} (squared Euclidean; the lowest index on ties). */
  public static int nearest(double[] point, List<double[]> centroids) {
    int best = 0;
    double bestDistance = Double.MAX_VALUE;
    for (int c = 0; c < centroids.size(); c++) {
      double distance = 0;
      double[] centroid = centroids.get(c);
      for (int d = 0; d < point.length; d++) {
        double delta = point[d] - centroid[d];
        distance += delta * delta;
      }
      if (distance < bestDistance) {
        bestDistance = distance;
        best = c;
      }
    }
    return best;
  }

  /** Centroids as one configuration value: points separated by {@code ;}. */
  static String encode(List<double[]> centroids) {
    List<String> points = new ArrayList<>();
    for (double[] centroid : centroids) {
      points.add(format(centroid));
    }
    return String.join(";", points);
  }

  static List<double[]> decode(String text, int dims) {
    List<double[]> centroids = new ArrayList<>();
    for (String point : text.split(";")) {
      centroids.add(parse(point, dims));
    }
    return centroids;
  }
}
