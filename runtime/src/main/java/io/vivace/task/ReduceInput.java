package io.vivace.task;

import io.vivace.merge.SegmentMerger;
import io.vivace.shuffle.Segment;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.mapred.JobConf;
import io.vivace.merge.MergingIterator;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;

/**
 * Fetches a reduce partition's segments from every map (in memory, no sockets) and merges them.
 * REDUCE_SHUFFLE_BYTES counts the segments' stored bytes, compressed when map output is, as
 * Hadoop counts the bytes its fetchers copy.
 */
final class ReduceInput {

  private ReduceInput() {
  }

  static MergingIterator open(TaskAttempt attempt) throws IOException {
    JobConf conf = attempt.conf();
    TaskReporter reporter = attempt.reporter();
    List<Segment> segments = attempt.env().shuffle().segmentsFor(attempt.partition());
    long bytes = 0;
    for (Segment s : segments) {
      bytes += s.length();
    }
    reporter.frameworkCounter(TaskCounter.SHUFFLED_MAPS).increment(attempt.env().maps());
    reporter.frameworkCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).increment(bytes);
    reporter.frameworkCounter(TaskCounter.MERGED_MAP_OUTPUTS).increment(attempt.env().maps());
    SegmentMerger merger = new SegmentMerger(conf.getOutputKeyComparator(),
        conf.getInt(MRJobConfig.IO_SORT_FACTOR, MRJobConfig.DEFAULT_IO_SORT_FACTOR),
        attempt.scratchDir(), attempt.env().mapOutputCodec());
    MergingIterator merged = merger.merge(segments);
    reporter.frameworkCounter(TaskCounter.SPILLED_RECORDS).increment(merger.spilledRecords());
    return merged;
  }
}
