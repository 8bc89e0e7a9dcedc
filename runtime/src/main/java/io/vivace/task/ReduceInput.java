package io.vivace.task;

import io.vivace.conf.VivaceConf;
import io.vivace.localdisk.LocalFileStatistics;
import io.vivace.merge.MergingIterator;
import io.vivace.merge.SegmentMerger;
import io.vivace.shuffle.ShuffleInput;
import io.vivace.shuffle.ShuffledPartition;
import java.io.IOException;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;

/**
 * Takes a reduce partition's segments from every map (from this JVM's shuffle, or fetched from other
 * hosts: the attempt's {@link ShuffleInput}) and merges them.
 * REDUCE_SHUFFLE_BYTES counts the segments' stored bytes, compressed when map output is, as
 * Hadoop counts the bytes its fetchers copy.
 */
final class ReduceInput {

  private ReduceInput() {
  }

  static MergingIterator open(TaskAttempt attempt) throws IOException {
    JobConf conf = attempt.conf();
    TaskReporter reporter = attempt.reporter();
    ShuffledPartition input = attempt.shuffleInput().take(attempt.partition());
    reporter.frameworkCounter(TaskCounter.SHUFFLED_MAPS).increment(attempt.env().maps());
    reporter.frameworkCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).increment(input.storedBytes());
    reporter.frameworkCounter(TaskCounter.MERGED_MAP_OUTPUTS).increment(attempt.env().maps());
    SegmentMerger merger = new SegmentMerger(conf.getOutputKeyComparator(),
        conf.getInt(MRJobConfig.IO_SORT_FACTOR, MRJobConfig.DEFAULT_IO_SORT_FACTOR),
        attempt.scratchDir(), attempt.env().mapOutputCodec(), mergeThreads(attempt));
    MergingIterator merged = merger.merge(input.segments());
    // what the shuffle wrote for the reduce (merges while maps ran) counts as the reduce's own, as
    // Hadoop's reduce counts its on-disk merges during the shuffle: spilled records and local file bytes
    LocalFileStatistics.charge(input.localFileIo());
    reporter.frameworkCounter(TaskCounter.SPILLED_RECORDS).increment(merger.spilledRecords() + input.spilledRecords());
    return merged;
  }

  /**
   * Threads that merge the reduce's input beside the reduce's own (the final pass while the reducer
   * runs, intermediate passes two at a time), or null to merge on the reduce's thread alone.
   */
  private static SegmentMerger.Threads mergeThreads(TaskAttempt attempt) {
    JobConf conf = attempt.conf();
    boolean own = VivaceConf.getBoolean(conf, "vivace.reduce.merge.thread");
    return own ? new SegmentMerger.Threads("vivace-merge-" + attempt.idText(), conf::getOutputKeyComparator) : null;
  }
}
