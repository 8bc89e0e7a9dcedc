package io.vivace.workloads.swim;

/**
 * Everything besides the trace that decides a replay's jobs: the scale, the target cluster's
 * machines (for SWIM's reducer cap), the gap compression, bytes per reduce, the pool and the seed.
 */
public record ReplaySettings(Scale scale, int clusterNodes, double gapCompression,
    long bytesPerReduce, PoolLayout pool, long seed) {

  public ReplaySettings {
    if (clusterNodes < 1 || bytesPerReduce < 1) {
      throw new IllegalArgumentException("cluster nodes and bytes per reduce must be at least 1");
    }
    JobSynthesis.dueOffsetMs(0, gapCompression); // rejects a compression of 0 or less
  }
}
