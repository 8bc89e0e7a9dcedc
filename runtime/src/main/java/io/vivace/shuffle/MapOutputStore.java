package io.vivace.shuffle;

/**
 * The publish side of a job's shuffle in one JVM: where the outputs of the job's map attempts that
 * ran here live ({@link MapOutput}: one segment per partition, on the heap within the engine's
 * {@link ShuffleMemory} budget, else in a local file) until their reduces no longer need them.
 * Reduces in this JVM read them through {@link ShuffleInput}; an executor serves them to reduces on
 * other hosts ({@code shuffle/net/MapOutputServer}).
 */
public interface MapOutputStore {

  /** Keeps a successful map attempt's output; a map run again replaces its earlier output. */
  void publish(int mapIndex, MapOutput output);

  /** The output map {@code mapIndex} published here, or null (not here, or released). */
  MapOutput mapOutput(int mapIndex);

  /** Frees what a finished reduce partition no longer needs. */
  void releasePartition(int partition);

  /** Frees every map output, once work on them under way has stopped. */
  void releaseAll();
}
