package io.vivace.task;

import io.vivace.sort.BufferedRun;
import java.io.IOException;
import java.util.NoSuchElementException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.ReduceContext;
import org.apache.hadoop.mapreduce.StatusReporter;
import org.apache.hadoop.mapreduce.task.TaskInputOutputContextImpl;

/**
 * The combiner's reduce context over a {@link BufferedRun}: what Hadoop's {@code ReduceContextImpl}
 * does (the same calls reach the combiner in the same order, the same key and value objects are
 * reused, one COMBINE_INPUT_RECORDS per record read), but keys and values are read in place from
 * the sort buffer, where Hadoop copies every key and reads it through a {@code DataInputStream}, and
 * the grouping comparator is not asked about a key that repeats the previous one byte for byte.
 * Since the run stays in memory, {@code mark}/{@code reset} of the value iterator (Hadoop's
 * {@code MarkableIterator}) keep positions in the run where Hadoop copies records to a backup store.
 */
final class BufferedRunContext<K, V> extends TaskInputOutputContextImpl<K, V, K, V>
    implements ReduceContext<K, V, K, V> {

  private final BufferedRun run;
  private final byte[] data;
  private final int end;
  private final Counter inputRecords;
  private final RawComparator<K> grouping;
  private final FieldReader<K> keyReader;
  private final FieldReader<V> valueReader;
  private final Values values = new Values();
  private final Iterable<V> iterable = () -> values;

  /** The position of the record in key and value; from - 1 before the first. */
  private int current;
  private boolean hasMore;
  private boolean nextKeyIsSame;
  private boolean firstValue;
  private K key;
  private V value;

  /** Readers may serve one context after another (a new context starts with new objects). */
  BufferedRunContext(Configuration conf, TaskAttemptID id, BufferedRun run, Counter inputRecords,
                     RecordWriter<K, V> output, StatusReporter reporter, RawComparator<K> grouping,
                     FieldReader<K> keyReader, FieldReader<V> valueReader) {
    super(conf, id, output, null, reporter);
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
  public boolean nextKey() throws IOException, InterruptedException {
    while (hasMore && nextKeyIsSame) {
      nextKeyValue();
    }
    return hasMore && nextKeyValue();
  }

  @Override
  public boolean nextKeyValue() throws IOException, InterruptedException {
    if (!hasMore) {
      key = null;
      value = null;
      return false;
    }
    firstValue = !nextKeyIsSame;
    int p = ++current;
    int keyStart = run.keyStart(p);
    int keyEnd = run.keyEnd(p);
    key = keyReader.read(key, data, keyStart, keyEnd);
    value = valueReader.read(value, data, keyEnd, run.valueEnd(p));
    hasMore = p + 1 < end;
    nextKeyIsSame = hasMore && (run.keyRepeats(p + 1) || grouping.compare(data, keyStart,
        keyEnd - keyStart, data, run.keyStart(p + 1), run.keyEnd(p + 1) - run.keyStart(p + 1)) == 0);
    inputRecords.increment(1);
    return true;
  }

  @Override
  public K getCurrentKey() {
    return key;
  }

  @Override
  public V getCurrentValue() {
    return value;
  }

  @Override
  public Iterable<V> getValues() {
    return iterable;
  }

  /**
   * The values of the current key. Marked, the iterator remembers the current record's position
   * and the last position read since (Hadoop's backup store holds exactly those records); reset, it
   * serves the values from the mark again, then goes on reading the run.
   */
  private final class Values implements ReduceContext.ValueIterator<V> {
    private boolean marked;
    private boolean inReset;
    private boolean clearMarkAfterReset;
    /** While marked: the first position a reset serves again. */
    private int markedFrom;
    /** In reset: the next position to serve, and the position served last. */
    private int replayNext;
    private int replayLast;

    @Override
    public boolean hasNext() {
      if (inReset && replayNext <= current) {
        return true;
      }
      return firstValue || nextKeyIsSame;
    }

    @Override
    public V next() {
      try {
        if (inReset) {
          if (replayNext <= current) {
            replayLast = replayNext++;
            value = valueReader.read(value, data, run.keyEnd(replayLast), run.valueEnd(replayLast));
            return value;
          }
          inReset = false;
          if (clearMarkAfterReset) {
            clearMarkAfterReset = false;
            marked = false;
          }
        }
        if (firstValue) {
          firstValue = false;
          return value;
        }
        if (!nextKeyIsSame) {
          throw new NoSuchElementException("iterate past last value");
        }
        nextKeyValue();
        return value;
      } catch (IOException e) {
        throw new RuntimeException("next value iterator failed", e);
      } catch (InterruptedException e) {
        throw new RuntimeException("next value iterator interrupted", e);
      }
    }

    @Override
    public void mark() {
      marked = true;
      // out of a reset: from the current record; in a reset: from the record served last
      markedFrom = inReset ? replayLast : current;
    }

    @Override
    public void reset() throws IOException {
      if (clearMarkAfterReset) {
        clearMarkAfterReset = false;
        marked = false;
        throw new IOException("Reset called without a previous mark");
      }
      if (!marked) {
        throw new IOException("Reset called without a previous mark");
      }
      inReset = true;
      replayNext = markedFrom;
      replayLast = markedFrom;
    }

    @Override
    public void clearMark() {
      if (inReset) {
        clearMarkAfterReset = true;
      } else {
        marked = false;
      }
    }

    @Override
    public void resetBackupStore() {
      inReset = false;
      marked = false;
      clearMarkAfterReset = false;
    }
  }
}
