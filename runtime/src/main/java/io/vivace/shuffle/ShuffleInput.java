package io.vivace.shuffle;

import java.io.IOException;

/**
 * The read side of a job's shuffle: how a reduce attempt gets its partition's map outputs. From this
 * JVM's {@link MapOutputStore} ({@link ShuffleRegistry}, in memory or in local files), or fetched
 * from the executors on other hosts that hold them (a network fetch, {@code shuffle/net}).
 */
public interface ShuffleInput {

  /**
   * Takes {@code partition}'s map outputs for its reduce, waiting for what the shuffle still does
   * with them; a partition is taken once per attempt.
   */
  ShuffledPartition take(int partition) throws IOException;
}
