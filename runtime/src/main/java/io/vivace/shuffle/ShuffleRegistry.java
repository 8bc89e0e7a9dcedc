package io.vivace.shuffle;

import java.util.ArrayList;
import java.util.List;

/**
 * The shuffle of one job, without sockets: map attempts publish their output here and each reduce
 * partition takes its segments from every map, in map order.
 */
public final class ShuffleRegistry {

  private final MapOutput[] outputs;

  public ShuffleRegistry(int maps) {
    this.outputs = new MapOutput[maps];
  }

  public synchronized void publish(int mapIndex, MapOutput output) {
    if (outputs[mapIndex] != null) {
      outputs[mapIndex].release();
    }
    outputs[mapIndex] = output;
  }

  /** The non-empty segments of {@code partition}, in map order. */
  public synchronized List<Segment> segmentsFor(int partition) {
    List<Segment> segments = new ArrayList<>();
    for (MapOutput output : outputs) {
      if (output != null && output.partition(partition) != null) {
        segments.add(output.partition(partition));
      }
    }
    return segments;
  }

  /** Frees what a finished reduce partition no longer needs. */
  public synchronized void releasePartition(int partition) {
    for (MapOutput output : outputs) {
      if (output != null && output.partition(partition) != null) {
        output.partition(partition).release();
      }
    }
  }

  public synchronized void releaseAll() {
    for (int i = 0; i < outputs.length; i++) {
      if (outputs[i] != null) {
        outputs[i].release();
        outputs[i] = null;
      }
    }
  }
}
