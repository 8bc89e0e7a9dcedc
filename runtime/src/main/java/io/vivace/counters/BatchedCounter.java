package io.vivace.counters;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.mapreduce.Counter;

/**
 * A counter for Hadoop code that increments it once per record (the combiner's input records, in
 * ReduceContextImpl): increments add to a plain long, and {@link #flush()} passes them on to the
 * task's counter, whose every increment compares the counter's name. Reads see both.
 */
public final class BatchedCounter implements Counter {

  private final Counter target;
  private long pending;

  public BatchedCounter(Counter target) {
    this.target = target;
  }

  @Override
  public void increment(long amount) {
    pending += amount;
  }

  /** Adds the increments so far to the task's counter. */
  public void flush() {
    if (pending != 0) {
      target.increment(pending);
      pending = 0;
    }
  }

  @Override
  public long getValue() {
    return target.getValue() + pending;
  }

  @Override
  public void setValue(long value) {
    pending = 0;
    target.setValue(value);
  }

  @Override
  public String getName() {
    return target.getName();
  }

  @Override
  public String getDisplayName() {
    return target.getDisplayName();
  }

  @Override
  @Deprecated
  public void setDisplayName(String displayName) {
    target.setDisplayName(displayName);
  }

  @Override
  public Counter getUnderlyingCounter() {
    return this;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    flush();
    target.write(out);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    pending = 0;
    target.readFields(in);
  }
}
