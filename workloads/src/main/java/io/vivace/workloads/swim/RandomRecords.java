package io.vivace.workloads.swim;

import java.io.IOException;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * Random 10-byte-key, 90-byte-value records from one seeded stream, written into two reused
 * BytesWritables.
 */
final class RandomRecords {

  private final Random random;
  private final double ratio;
  private final byte[] keyBytes = new byte[PoolLayout.KEY_BYTES];
  private final byte[] valueBytes = new byte[PoolLayout.VALUE_BYTES];
  final BytesWritable key = new BytesWritable();
  final BytesWritable value = new BytesWritable();

  RandomRecords(long seed) {
    this(seed, 0);
  }

  /** A stream that emits {@code ratio} records per input on average ({@link #emit}). */
  RandomRecords(long seed, double ratio) {
    this.random = new Random(seed);
    this.ratio = ratio;
  }

  /**
   * A task's stream: seeded with the replay's seed, the job's index, the task's kind and number
   * (the same records on every engine and every attempt), emitting the ratio the job's
   * configuration gives under {@code ratioKey}.
   */
  static RandomRecords forTask(TaskAttemptContext context, long kind, String ratioKey) {
    Configuration conf = context.getConfiguration();
    return new RandomRecords(Seeds.of(conf.getLong(SwimJobFactory.SEED, 0),
        conf.getInt(SwimJobFactory.JOB_INDEX, 0), kind,
        context.getTaskAttemptID().getTaskID().getId()), conf.getDouble(ratioKey, 0));
  }

  /** Fills {@link #key} and {@link #value} with the next record. */
  void next() {
    random.nextBytes(keyBytes);
    random.nextBytes(valueBytes);
    key.set(keyBytes, 0, keyBytes.length);
    value.set(valueBytes, 0, valueBytes.length);
  }

  /** How many records to emit for one input. */
  private long draw() {
    return JobSynthesis.draw(ratio, random.nextDouble());
  }

  interface Sink {
    void write(BytesWritable key, BytesWritable value) throws IOException, InterruptedException;
  }

  /** Emits the whole part of the ratio, plus one with the fraction's probability, of fresh records. */
  void emit(Sink sink) throws IOException, InterruptedException {
    for (long n = draw(); n > 0; n--) {
      next();
      sink.write(key, value);
    }
  }
}
