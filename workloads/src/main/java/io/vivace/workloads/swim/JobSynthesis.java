package io.vivace.workloads.swim;

/**
 * SWIM's rules for turning one trace line into a job, each a pure function. Sizes are bytes of
 * records (key and value bytes, 100 a record), as the trace counts them.
 */
public final class JobSynthesis {

  /** The least shuffle and output a job is given (SWIM: 1 KiB), so every job has a reduce. */
  public static final long MIN_SHUFFLE_OR_OUTPUT = 1024;

  private JobSynthesis() {}

  /** Input scaled, then at least one partition's usable bytes (SWIM: at least one 64 MB block). */
  public static long input(long traceInput, Scale scale, PoolLayout pool) {
    return Math.max(scale.apply(traceInput), pool.usableBytes());
  }

  /** Shuffle or output scaled, then at least {@link #MIN_SHUFFLE_OR_OUTPUT}. */
  public static long shuffleOrOutput(long traceBytes, Scale scale) {
    return Math.max(scale.apply(traceBytes), MIN_SHUFFLE_OR_OUTPUT);
  }

  /** Partitions a job reads: enough whole partitions to hold its input. */
  public static long partitions(long input, PoolLayout pool) {
    long usable = pool.usableBytes();
    return (input + usable - 1) / usable;
  }

  /**
   * SWIM's reducers: {@code round((shuffle + output) / bytesPerReduce)}, at least 1; above the
   * target cluster's machine count SWIM uses a fifth of that count instead (its cap for jobs that
   * would otherwise ask for more reducers than machines), which this keeps at least 1 as well
   * (SWIM's integer division gives 0 on clusters of fewer than 5 machines).
   */
  public static int reducers(long shuffle, long output, long bytesPerReduce, int clusterNodes) {
    long reducers = Math.round((shuffle + output) / (double) bytesPerReduce);
    if (reducers < 1) {
      reducers = 1;
    }
    if (reducers > clusterNodes) {
      reducers = Math.max(1, clusterNodes / 5);
    }
    return (int) reducers;
  }

  /**
   * Map output records per input record, on average: the shuffle's records over the records of
   * the partitions the job actually reads. SWIM divides by the requested input instead, so its
   * shuffle grows with the rounding up to whole partitions; dividing by what is read keeps the
   * shuffle at the trace's (scaled) size.
   */
  public static double mapRecordsPerInputRecord(long shuffle, long partitions, PoolLayout pool) {
    double shuffleRecords = shuffle / (double) PoolLayout.RECORD_BYTES;
    return shuffleRecords / (partitions * pool.recordsPerPartition());
  }

  /** Reduce output records per shuffled value, on average: output over shuffle bytes. */
  public static double reduceRecordsPerValue(long shuffle, long output) {
    return output / (double) shuffle;
  }

  /**
   * Milliseconds from the replay's start to a job's submission: the trace's gaps since the first
   * replayed job, summed, divided by {@code compression} (1: the trace's own pace).
   */
  public static long dueOffsetMs(long gapsSinceFirstS, double compression) {
    if (!(compression > 0)) {
      throw new IllegalArgumentException("gap compression must be greater than 0: " + compression);
    }
    return Math.round(gapsSinceFirstS * 1000.0 / compression);
  }

  /** Records to emit for one input: the whole part of {@code ratio}, plus 1 with the fraction's probability. */
  public static long draw(double ratio, double uniform) {
    long whole = (long) Math.floor(ratio);
    return whole + (uniform < ratio - whole ? 1 : 0);
  }
}
