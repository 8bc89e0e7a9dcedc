package io.vivace.task;

import java.io.IOException;
import java.util.NoSuchElementException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.ReduceContext;
import org.apache.hadoop.mapreduce.StatusReporter;
import org.apache.hadoop.mapreduce.task.TaskInputOutputContextImpl;

/**
 * What Hadoop's {@code ReduceContextImpl} does for a reducer or a combiner, over input whose keys
 * and values a subclass reads in place: the same calls reach the reducer in the same order, the
 * same key and value objects are reused, and the value iterator keeps Hadoop's
 * {@code MarkableIterator} contract (mark, reset, clearMark and the backup store's corners) over the
 * values a subclass keeps while marked, its "store", indexed from 0 in the order they were read.
 */
abstract class InPlaceReduceContext<KI, VI, KO, VO> extends TaskInputOutputContextImpl<KI, VI, KO, VO>
    implements ReduceContext<KI, VI, KO, VO> {

  /** REDUCE_INPUT_GROUPS; null for a combiner, as Hadoop's. */
  private final Counter inputGroups;
  private final Values values = new Values();
  private final Iterable<VI> iterable = () -> values;
  /** Whether a record was read since the values were last reset for a new key. */
  private boolean haveCurrent;
  private boolean firstValue;
  protected boolean hasMore;
  protected boolean nextKeyIsSame;
  protected KI key;
  protected VI value;

  InPlaceReduceContext(Configuration conf, TaskAttemptID id, Counter inputGroups,
                       RecordWriter<KO, VO> output, OutputCommitter committer, StatusReporter reporter) {
    super(conf, id, output, committer, reporter);
    this.inputGroups = inputGroups;
  }

  /**
   * Reads the next record into {@link #key} and {@link #value}, adds its value to the store while
   * {@link #isMarked()}, and sets {@link #hasMore} and {@link #nextKeyIsSame} for the record after it.
   */
  protected abstract void readRecord() throws IOException;

  /** The number of values in the store. */
  protected abstract int storedCount();

  /** The stored value at {@code index}, read into {@code reuse} where it can be. */
  protected abstract VI readStored(VI reuse, int index) throws IOException;

  /** Empties the store. */
  protected abstract void clearStore();

  /** Puts the value served last, as the value object holds it now, into the store just emptied. */
  protected abstract void storeCurrentValue() throws IOException;

  protected final boolean isMarked() {
    return values.marked;
  }

  @Override
  public boolean nextKey() throws IOException, InterruptedException {
    while (hasMore && nextKeyIsSame) {
      nextKeyValue();
    }
    if (!hasMore) {
      return false;
    }
    if (inputGroups != null) {
      inputGroups.increment(1);
    }
    progress();
    return nextKeyValue();
  }

  @Override
  public boolean nextKeyValue() throws IOException, InterruptedException {
    if (!hasMore) {
      key = null;
      value = null;
      return false;
    }
    firstValue = !nextKeyIsSame;
    readRecord();
    haveCurrent = true;
    return true;
  }

  @Override
  public KI getCurrentKey() {
    return key;
  }

  @Override
  public VI getCurrentValue() {
    return value;
  }

  @Override
  public Iterable<VI> getValues() {
    return iterable;
  }

  /**
   * The values of the current key, with Hadoop's mark and reset: marked, the store holds the value
   * served last and every value read since; reset, the iterator serves them again from the mark,
   * then goes on reading the input. A mark taken during a reset starts the next reset at the value
   * served last.
   */
  private final class Values implements ReduceContext.ValueIterator<VI> {
    /** Whether a mark was ever taken: until then clearMark and resetBackupStore do nothing, as Hadoop's. */
    private boolean storeInUse;
    private boolean marked;
    private boolean inReset;
    /** A clearMark during a reset: the mark ends when the reset does. */
    private boolean clearMarkFlag;
    /** The store's own flag of that: set again by a reset refused for it, so it can outlive the first. */
    private boolean storeClearPending;
    /** The index in the store that a reset serves first. */
    private int markedFrom;
    /** In reset: the index to serve next, and the index served last. */
    private int replayNext;
    private int replayLast;

    @Override
    public boolean hasNext() {
      if (inReset && replayNext < storedCount()) {
        return true;
      }
      return firstValue || nextKeyIsSame;
    }

    @Override
    public VI next() {
      try {
        if (inReset) {
          if (replayNext < storedCount()) {
            replayLast = replayNext++;
            value = readStored(value, replayLast);
            return value;
          }
          inReset = false;
          if (storeClearPending) {
            clear();
          }
          if (clearMarkFlag) {
            clearMarkFlag = false;
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
    public void mark() throws IOException {
      storeInUse = true;
      marked = true;
      if (inReset) {
        markedFrom = replayLast;
        return;
      }
      clear();
      if (haveCurrent) {
        storeCurrentValue();
      }
    }

    @Override
    public void reset() throws IOException {
      if (clearMarkFlag) {
        clearMarkFlag = false;
        if (inReset) {
          storeClearPending = true;
        } else {
          clear();
        }
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
      if (!storeInUse) {
        return;
      }
      if (inReset) {
        clearMarkFlag = true;
        storeClearPending = true;
      } else {
        marked = false;
        clear();
      }
    }

    @Override
    public void resetBackupStore() {
      if (!storeInUse) {
        return;
      }
      inReset = false;
      marked = false;
      clear();
      haveCurrent = false;
    }

    private void clear() {
      clearStore();
      markedFrom = 0;
      storeClearPending = false;
    }
  }
}
