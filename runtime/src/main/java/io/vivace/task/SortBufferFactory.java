package io.vivace.task;

import io.vivace.sort.MapOutputBuffer;
import io.vivace.sort.MapOutputCounters;
import java.io.IOException;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;

/** Creates a map attempt's {@link MapOutputBuffer} from the job's configuration. */
final class SortBufferFactory {

  private SortBufferFactory() {
  }

  static <K, V> MapOutputBuffer<K, V> create(TaskAttempt attempt) throws IOException {
    JobConf conf = attempt.conf();
    int sortMb = conf.getInt(MRJobConfig.IO_SORT_MB, MRJobConfig.DEFAULT_IO_SORT_MB);
    if ((sortMb & 0x7FF) != sortMb) {
      throw new IOException("Invalid \"" + MRJobConfig.IO_SORT_MB + "\": " + sortMb);
    }
    TaskReporter reporter = attempt.reporter();
    MapOutputCounters counters = new MapOutputCounters(
        reporter.frameworkCounter(TaskCounter.MAP_OUTPUT_RECORDS),
        reporter.frameworkCounter(TaskCounter.MAP_OUTPUT_BYTES),
        reporter.frameworkCounter(TaskCounter.SPILLED_RECORDS),
        reporter.frameworkCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES));
    MapOutputBuffer.Settings settings = new MapOutputBuffer.Settings(
        attempt.env().reduces(),
        (long) sortMb << 20,
        conf.getOutputKeyComparator(),
        CombinerFactory.create(attempt),
        conf.getInt(MRJobConfig.MAP_COMBINE_MIN_SPILLS, 3),
        conf.getInt(MRJobConfig.IO_SORT_FACTOR, MRJobConfig.DEFAULT_IO_SORT_FACTOR),
        attempt.scratchDir(),
        attempt.env().shuffleMemory(),
        counters,
        attempt.env().mapOutputCodec());
    AttemptSerializations serializations = attempt.serializations();
    @SuppressWarnings("unchecked")
    Class<K> keyClass = (Class<K>) conf.getMapOutputKeyClass();
    @SuppressWarnings("unchecked")
    Class<V> valueClass = (Class<V>) conf.getMapOutputValueClass();
    return new MapOutputBuffer<>(settings, serializations.serializer(keyClass, "map output key"),
        serializations.serializer(valueClass, "map output value"));
  }
}
