package io.vivace.workloads.kmeans;

import io.vivace.workloads.gen.GeneratorJob;

/**
 * HiBench's K-means scale profiles (its {@code kmeans.conf}): the points generated, their
 * dimensions, the Gaussian clusters they are drawn around, the centroids asked for and the
 * iterations at most.
 */
public enum KMeansProfile {
  TINY(30_000, 3, 5, 10, 5),
  SMALL(3_000_000, 20, 5, 10, 5),
  LARGE(20_000_000, 20, 5, 10, 5),
  HUGE(100_000_000, 20, 5, 10, 5);

  public final long samples;
  public final int dims;
  public final int clusters;
  public final int k;
  public final int iterations;

  KMeansProfile(long samples, int dims, int clusters, int k, int iterations) {
    this.samples = samples;
    this.dims = dims;
    this.clusters = clusters;
    this.k = k;
    this.iterations = iterations;
  }

  public static KMeansProfile of(String name) {
    return GeneratorJob.profile(KMeansProfile.class, name);
  }
}
