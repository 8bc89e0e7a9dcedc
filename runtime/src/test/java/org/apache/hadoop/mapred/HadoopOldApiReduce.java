package org.apache.hadoop.mapred;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapreduce.Counter;

/**
 * For tests: an old-API reducer run over merged records the way Hadoop's {@code ReduceTask} runs
 * it, on Hadoop's own {@link Task.ValuesIterator} (package-private, hence this package). Hadoop's
 * {@code ReduceValuesIterator}, private to {@code ReduceTask}, adds one REDUCE_INPUT_RECORDS per
 * {@code next()} call before moving on; {@code runOldReducer} counts one REDUCE_INPUT_GROUPS per
 * {@code reduce} call. Those two lines are repeated here.
 */
public final class HadoopOldApiReduce {

  private HadoopOldApiReduce() {
  }

  public static <K, V, KO, VO> void run(RawKeyValueIterator input, RawComparator<K> grouping,
                                        Class<K> keyClass, Class<V> valueClass, Configuration conf,
                                        Reducer<K, V, KO, VO> reducer, OutputCollector<KO, VO> out,
                                        Counter groups, Counter records) throws IOException {
    Task.ValuesIterator<K, V> values =
        new Task.ValuesIterator<>(input, grouping, keyClass, valueClass, conf, Reporter.NULL) {
          @Override
          public V next() {
            records.increment(1);
            return super.next();
          }
        };
    while (values.more()) {
      groups.increment(1);
      reducer.reduce(values.getKey(), values, out, Reporter.NULL);
      values.nextKey();
    }
    reducer.close();
  }
}
