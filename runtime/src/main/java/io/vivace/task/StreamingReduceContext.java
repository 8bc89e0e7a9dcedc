package io.vivace.task;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.StatusReporter;

/**
 * The new-API reducer's context over the merged input (see {@link InPlaceReduceContext}):
 * REDUCE_INPUT_GROUPS counted per key and REDUCE_INPUT_RECORDS per record read, the grouping
 * comparator called on the raw bytes of the current and the next key, as Hadoop's
 * {@code ReduceContextImpl}, but keys and values are read in place from the merge's buffers with
 * {@link FieldReader}, where Hadoop reads them through a {@code DataInputStream}. The store of
 * mark and reset is a {@link MarkedValues}, on the heap only, where Hadoop's backup store can
 * spill to disk.
 */
final class StreamingReduceContext<KI, VI, KO, VO> extends InPlaceReduceContext<KI, VI, KO, VO> {

  private final RawKeyValueIterator input;
  private final Counter inputRecords;
  private final RawComparator<KI> grouping;
  private final FieldReader<KI> keyReader;
  private final FieldReader<VI> valueReader;
  private final AttemptSerializations serializations;
  private final Class<VI> valueClass;
  /** The current key's bytes: the input moves on before they are compared with the next key. */
  private byte[] rawKey = new byte[64];
  private int rawKeyLength;
  /** Values read while marked; created by the first mark, as Hadoop's backup store. */
  private MarkedValues store;
  private DataOutputBuffer serialized;
  private Serializer<VI> serializer;

  StreamingReduceContext(Configuration conf, AttemptSerializations serializations, TaskAttemptID id,
                         RawKeyValueIterator input,
                         Counter inputGroups, Counter inputRecords, RecordWriter<KO, VO> output,
                         OutputCommitter committer, StatusReporter reporter, RawComparator<KI> grouping,
                         Class<KI> keyClass, Class<VI> valueClass) throws IOException {
    super(conf, id, inputGroups, output, committer, reporter);
    this.input = input;
    this.inputRecords = inputRecords;
    this.grouping = grouping;
    this.keyReader = FieldReader.of(serializations, keyClass, "map output key");
    this.valueReader = FieldReader.of(serializations, valueClass, "map output value");
    this.serializations = serializations;
    this.valueClass = valueClass;
    this.hasMore = input.next();
  }

  @Override
  protected void readRecord() throws IOException {
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
    if (isMarked()) {
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
  }

  @Override
  protected int storedCount() {
    return store == null ? 0 : store.count();
  }

  @Override
  protected VI readStored(VI reuse, int index) throws IOException {
    return valueReader.read(reuse, store.data(), store.start(index), store.end(index));
  }

  @Override
  protected void clearStore() {
    if (store == null) {
      store = new MarkedValues();
    }
    store.clear();
  }

  /** The value served last, as its serialiser writes the object now. */
  @Override
  protected void storeCurrentValue() throws IOException {
    if (serializer == null) {
      serialized = new DataOutputBuffer();
      serializer = serializations.serializer(valueClass, "map output value");
      serializer.open(serialized);
    }
    serialized.reset();
    serializer.serialize(value);
    store.add(serialized.getData(), 0, serialized.getLength());
  }
}
