package io.vivace.shuffle;

import io.vivace.segment.Segment;
import java.io.IOException;
import java.util.List;

/**
 * Where a reduce attempt reads its partition's map outputs from: this JVM's shuffle
 * ({@link ShuffleRegistry}), or the executors on other hosts that hold them (a network fetch).
 */
public interface ShuffleInput {

  /** The partition's segments from every map, in map order; takes the partition for the reduce. */
  List<Segment> segmentsFor(int partition) throws IOException;

  /** The bytes of the partition's map outputs as the maps stored them (REDUCE_SHUFFLE_BYTES). */
  long mapOutputBytes(int partition);

  /** What merges ahead of the reduce did with the partition, while maps ran (none when fetched). */
  ShuffleRegistry.MergedAhead mergedAhead(int partition);
}
