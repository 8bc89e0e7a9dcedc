package io.vivace.task;

import io.vivace.sort.BufferedRun;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.StatusReporter;

/**
 * The combiner's reduce context over a {@link BufferedRun} (see {@link InPlaceReduceContext}): one
 * COMBINE_INPUT_RECORDS per record read, as Hadoop's {@code ReduceContextImpl}, but keys and values
 * are read in place from the sort buffer, where Hadoop copies every key and reads it through a
 * {@code DataInputStream}, and the grouping comparator is not asked about a key that repeats the
 * previous one byte for byte. Since the run stays in memory, the store of mark and reset is a range
 * of positions in the run, where Hadoop copies records to a backup store.
 */
final class BufferedRunContext<K, V> extends InPlaceReduceContext<K, V, K, V> {

  private final BufferedRun run;
  private final byte[] data;
  private final int end;
  private final Counter inputRecords;
  private final RawComparator<K> grouping;
  private final FieldReader<K> keyReader;
  private final FieldReader<V> valueReader;

  /** The position of the record in key and value; from - 1 before the first. */
  private int current;
  /** The position of the store's first value: the store is the records from it to the current one. */
  private int storeFrom;

  /** Readers may serve one context after another (a new context starts with new objects). */
  BufferedRunContext(Configuration conf, TaskAttemptID id, BufferedRun run, Counter inputRecords,
                     RecordWriter<K, V> output, StatusReporter reporter, RawComparator<K> grouping,
                     FieldReader<K> keyReader, FieldReader<V> valueReader) {
    super(conf, id, null, output, null, reporter);
    this.run = run;
    this.data = run.data();
    this.end = run.to();
    this.inputRecords = inputRecords;
    this.grouping = grouping;
    this.keyReader = keyReader;
    this.valueReader = valueReader;
    this.current = run.from() - 1;
    this.hasMore = run.from() < end;
  }

  @Override
  protected void readRecord() throws IOException {
    int p = ++current;
    int keyStart = run.keyStart(p);
    int keyEnd = run.keyEnd(p);
    key = keyReader.read(key, data, keyStart, keyEnd);
    value = valueReader.read(value, data, keyEnd, run.valueEnd(p));
    hasMore = p + 1 < end;
    nextKeyIsSame = hasMore && (run.keyRepeats(p + 1) || grouping.compare(data, keyStart,
        keyEnd - keyStart, data, run.keyStart(p + 1), run.keyEnd(p + 1) - run.keyStart(p + 1)) == 0);
    inputRecords.increment(1);
  }

  /**
   * Every record read since the store was emptied: while unmarked, that counts records Hadoop's
   * store would not hold, but a store is emptied again before anything reads it unmarked.
   */
  @Override
  protected int storedCount() {
    return current + 1 - storeFrom;
  }

  @Override
  protected V readStored(V reuse, int index) throws IOException {
    int p = storeFrom + index;
    return valueReader.read(reuse, data, run.keyEnd(p), run.valueEnd(p));
  }

  @Override
  protected void clearStore() {
    storeFrom = current + 1;
  }

  /** The current record as the run holds it, where Hadoop serialises the value object. */
  @Override
  protected void storeCurrentValue() {
    storeFrom = current;
  }
}
