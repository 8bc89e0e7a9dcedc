package io.vivace.workloads.swim;

import java.io.IOException;
import java.util.Random;
import org.apache.hadoop.io.BytesWritable;

/**
 * Random 10-byte-key, 90-byte-value records from one seeded stream, written into two reused
 * BytesWritables.
 */
final class RandomRecords {

  private final Random random;
  private final byte[] keyBytes = new byte[PoolLayout.KEY_BYTES];
  private final byte[] valueBytes = new byte[PoolLayout.VALUE_BYTES];
  final BytesWritable key = new BytesWritable();
  final BytesWritable value = new BytesWritable();

  RandomRecords(long seed) {
    random = new Random(seed);
  }

  /** Fills {@link #key} and {@link #value} with the next record. */
  void next() {
    random.nextBytes(keyBytes);
    random.nextBytes(valueBytes);
    key.set(keyBytes, 0, keyBytes.length);
    value.set(valueBytes, 0, valueBytes.length);
  }

  /** How many records to emit for one input at {@code ratio} records per input. */
  long draw(double ratio) {
    return JobSynthesis.draw(ratio, random.nextDouble());
  }

  interface Sink {
    void write(BytesWritable key, BytesWritable value) throws IOException, InterruptedException;
  }

  /** Emits {@link #draw}{@code (ratio)} fresh records into {@code sink}. */
  void emit(double ratio, Sink sink) throws IOException, InterruptedException {
    for (long n = draw(ratio); n > 0; n--) {
      next();
      sink.write(key, value);
    }
  }
}
