package io.vivace.task;

import java.io.IOException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.util.Progressable;

/**
 * The values an old-API reducer iterates, as Hadoop's ReduceTask gives them (its {@code
 * ValuesIterator} and {@code ReduceValuesIterator}): one REDUCE_INPUT_RECORDS per {@code next()}
 * call (values the reducer leaves unread are not counted), the group's first key object passed to
 * {@code reduce} while the next keys are read into a second object, the two swapping at each new
 * key, and the grouping comparator asked about the key objects (the group's first key against each
 * next one). Keys and values are read in place with {@link FieldReader}.
 */
final class OldApiValues<K, V> implements Iterator<V> {

  private final RawKeyValueIterator input;
  private final RawComparator<K> grouping;
  private final FieldReader<K> keyReader;
  private final FieldReader<V> valueReader;
  private final Counter inputRecords;
  private final Progressable reporter;
  private K key;
  private K nextKey;
  private V value;
  /** More values of the current key. */
  private boolean hasNext;
  /** More records. */
  private boolean more;
  private int groupsDone;

  OldApiValues(RawKeyValueIterator input, RawComparator<K> grouping, Class<K> keyClass,
               Class<V> valueClass, AttemptSerializations serializations, Counter inputRecords,
               Progressable reporter) throws IOException {
    this.input = input;
    this.grouping = grouping;
    this.keyReader = FieldReader.of(serializations, keyClass, "map output key");
    this.valueReader = FieldReader.of(serializations, valueClass, "map output value");
    this.inputRecords = inputRecords;
    this.reporter = reporter;
    readNextKey();
    key = nextKey;
    nextKey = null; // the next group's key is a new object
    hasNext = more;
  }

  /**
   * Hadoop's old-API reduce loop: one {@code reduce} call per group, counted in {@code groups},
   * progress reported before the first and after each.
   */
  <KO, VO> void reduceAll(Reducer<K, V, KO, VO> reducer, OutputCollector<KO, VO> out, Reporter reporter,
                          Counter groups) throws IOException {
    reporter.progress();
    while (more) {
      groups.increment(1);
      reducer.reduce(key, this, out, reporter);
      nextKey();
      reporter.progress();
    }
  }

  /** Skips the values of the current key left unread and moves to the next key. */
  private void nextKey() throws IOException {
    while (hasNext) {
      readNextKey();
    }
    groupsDone++;
    K done = key;
    key = nextKey;
    nextKey = done;
    hasNext = more;
  }

  @Override
  public boolean hasNext() {
    return hasNext;
  }

  @Override
  public V next() {
    inputRecords.increment(1);
    if (!hasNext) {
      throw new NoSuchElementException("iterate past last value");
    }
    try {
      DataInputBuffer v = input.getValue();
      value = valueReader.read(value, v.getData(), v.getPosition(), v.getLength());
      readNextKey();
    } catch (IOException e) {
      throw new RuntimeException("problem advancing post rec#" + groupsDone, e);
    }
    reporter.progress();
    return value;
  }

  @Override
  public void remove() {
    throw new RuntimeException("not implemented");
  }

  private void readNextKey() throws IOException {
    more = input.next();
    if (more) {
      DataInputBuffer k = input.getKey();
      nextKey = keyReader.read(nextKey, k.getData(), k.getPosition(), k.getLength());
      hasNext = key != null && grouping.compare(key, nextKey) == 0;
    } else {
      hasNext = false;
    }
  }
}
