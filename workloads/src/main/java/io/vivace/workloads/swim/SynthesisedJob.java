package io.vivace.workloads.swim;

/**
 * One trace job as the replay runs it. {@code index} is the job's position in the trace (from
 * 0); {@code scaledInput}, {@code scaledShuffle} and {@code scaledOutput} are the trace's sizes
 * scaled, before the clamps; {@code input}, {@code shuffle} and {@code output} the targets after
 * them. The job reads {@code partitions} consecutive pool partitions from {@code firstPartition}
 * (wrapping around the pool), and runs {@code reducers} reduces.
 */
public record SynthesisedJob(int index, TraceJob trace, long dueOffsetMs, long scaledInput,
    long scaledShuffle, long scaledOutput, long input, long shuffle, long output,
    int firstPartition, int partitions, int reducers, double mapRatio, double reduceRatio) {

  /** The pool partitions this job reads, in order. */
  public int[] partitionIndexes(int poolPartitions) {
    int[] indexes = new int[partitions];
    for (int i = 0; i < partitions; i++) {
      indexes[i] = (firstPartition + i) % poolPartitions;
    }
    return indexes;
  }
}
