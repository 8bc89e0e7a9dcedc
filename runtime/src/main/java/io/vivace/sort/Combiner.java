package io.vivace.sort;

import io.vivace.segment.SegmentWriter;
import java.io.IOException;
import org.apache.hadoop.mapred.RawKeyValueIterator;

/** Runs the job's combiner over sorted records of one partition, writing serialised results. */
public interface Combiner {

  void combine(RawKeyValueIterator sortedRecords, SegmentWriter out)
      throws IOException, InterruptedException;
}
