package io.vivace.shuffle.net;

import io.vivace.shuffle.MapOutput;

/** Where an executor's {@link MapOutputServer} finds the map outputs it serves. */
@FunctionalInterface
public interface MapOutputSource {

  /**
   * The output attempt {@code attemptId} of map {@code mapIndex} of job {@code jobId} made, while
   * this executor holds it; null when it does not (unknown job or map, another attempt's output,
   * released). Called by the server's threads, at once.
   */
  MapOutput find(String jobId, int mapIndex, String attemptId);
}
