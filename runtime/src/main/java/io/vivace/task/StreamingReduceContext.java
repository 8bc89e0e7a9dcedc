package io.vivace.task;

import java.io.IOException;
import java.util.Arrays;
import java.util.NoSuchElementException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.ReduceContext;
import org.apache.hadoop.mapreduce.StatusReporter;
import org.apache.hadoop.mapreduce.task.TaskInputOutputContextImpl;

/**
 * The new-API reducer's context over the merged input: what Hadoop's {@code ReduceContextImpl}
 * does (the same calls reach the reducer in the same order, the same key and value objects are
 * reused, REDUCE_INPUT_GROUPS counted per key and REDUCE_INPUT_RECORDS per record read, the
 * grouping comparator called on the raw bytes of the current and the next key), but keys and
 * values are read in place from the merge's buffers with {@link FieldReader}, where Hadoop reads
 * them through a {@code DataInputStream}. {@code mark}/{@code reset} of the value iterator
 * (Hadoop's {@code MarkableIterator}) keep the values read since the mark in {@link MarkedValues},
 * as Hadoop's backup store does, on the heap only.
 */
final class StreamingReduceContext<KI, VI, KO, VO> extends TaskInputOutputContextImpl<KI, VI, KO, VO>
    implements ReduceContext<KI, VI, KO, VO> {

  private final RawKeyValueIterator input;
  private final Counter inputGroups;
  private final Counter inputRecords;
  private final RawComparator<KI> grouping;
  private final FieldReader<KI> keyReader;
  private final FieldReader<VI> valueReader;
  private final Configuration conf;
  private final Class<VI> valueClass;
  private final Values values = new Values();
  private final Iterable<VI> iterable = () -> values;
  /** The current key's bytes: the input moves on before they are compared with the next key. */
  private byte[] rawKey = new byte[64];
  private int rawKeyLength;
  /** Whether a record was read since the values were last reset for a new key. */
  private boolean haveCurrent;
  private boolean hasMore;
  private boolean nextKeyIsSame;
  private boolean firstValue;
  private boolean marked;
  /** Values read while marked; created by the first mark, as Hadoop's backup store. */
  private MarkedValues store;
  private KI key;
  private VI value;

  StreamingReduceContext(Configuration conf, TaskAttemptID id, RawKeyValueIterator input,
                         Counter inputGroups, Counter inputRecords, RecordWriter<KO, VO> output,
                         OutputCommitter committer, StatusReporter reporter, RawComparator<KI> grouping,
                         Class<KI> keyClass, Class<VI> valueClass) throws IOException {
    super(conf, id, output, committer, reporter);
    SerializationFactory factory = new SerializationFactory(conf);
    this.input = input;
    this.inputGroups = inputGroups;
    this.inputRecords = inputRecords;
    this.grouping = grouping;
    this.keyReader = FieldReader.of(factory, keyClass);
    this.valueReader = FieldReader.of(factory, valueClass);
    this.conf = conf;
    this.valueClass = valueClass;
    this.hasMore = input.next();
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
    DataInputBuffer k = input.getKey();
    DataInputBuffer v = input.getValue();
    int keyStart = k.getPosition();
    rawKeyLength = k.getLength() - keyStart;
    if (rawKeyLength > rawKey.length) {
      rawKey = Arrays.copyOf(rawKey, Math.max(rawKeyLength, 2 * rawKey.length));
    }
    System.arraycopy(k.getData(), keyStart, rawKey, 0, rawKeyLength);
    key = keyReader.read(key, rawKey, 0, rawKeyLength);
    value = valueReader.read(value, v.getData(), v.getPosition(), v.getLength());
    haveCurrent = true;
    if (marked) {
      store.add(v.getData(), v.getPosition(), v.getLength() - v.getPosition());
    }
    hasMore = input.next();
    if (hasMore) {
      DataInputBuffer next = input.getKey();
      nextKeyIsSame = grouping.compare(rawKey, 0, rawKeyLength, next.getData(), next.getPosition(),
          next.getLength() - next.getPosition()) == 0;
    } else {
      nextKeyIsSame = false;
    }
    inputRecords.increment(1);
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
   * The values of the current key, with Hadoop's mark and reset: marked, the iterator keeps the
   * value served last (serialised from the value object, as Hadoop writes it) and every value read
   * since; reset, it serves them again from the mark, then goes on reading the input. A mark taken
   * during a reset starts the next reset at the value served last.
   */
  private final class Values implements ReduceContext.ValueIterator<VI> {
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
    private DataOutputBuffer serialized;
    private Serializer<VI> serializer;

    @Override
    public boolean hasNext() {
      if (inReset && replayNext < store.count()) {
        return true;
      }
      return firstValue || nextKeyIsSame;
    }

    @Override
    public VI next() {
      try {
        if (inReset) {
          if (replayNext < store.count()) {
            replayLast = replayNext++;
            value = valueReader.read(value, store.data(), store.start(replayLast), store.end(replayLast));
            return value;
          }
          inReset = false;
          if (storeClearPending) {
            clearStore();
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
      if (store == null) {
        store = new MarkedValues();
      }
      marked = true;
      if (inReset) {
        markedFrom = replayLast;
        return;
      }
      clearStore();
      if (haveCurrent) {
        storeCurrentValue();
      }
    }

    /** The value served last, as its serialiser writes the object now. */
    private void storeCurrentValue() throws IOException {
      if (serializer == null) {
        serialized = new DataOutputBuffer();
        serializer = new SerializationFactory(conf).getSerializer(valueClass);
        serializer.open(serialized);
      }
      serialized.reset();
      serializer.serialize(value);
      store.add(serialized.getData(), 0, serialized.getLength());
    }

    @Override
    public void reset() throws IOException {
      if (clearMarkFlag) {
        clearMarkFlag = false;
        if (inReset) {
          storeClearPending = true;
        } else {
          clearStore();
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
      if (store == null) {
        return;
      }
      if (inReset) {
        clearMarkFlag = true;
        storeClearPending = true;
      } else {
        marked = false;
        clearStore();
      }
    }

    @Override
    public void resetBackupStore() {
      if (store == null) {
        return;
      }
      inReset = false;
      marked = false;
      clearStore();
      haveCurrent = false;
    }

    private void clearStore() {
      store.clear();
      markedFrom = 0;
      storeClearPending = false;
    }
  }
}
