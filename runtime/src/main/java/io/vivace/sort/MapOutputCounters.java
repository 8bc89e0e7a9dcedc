package io.vivace.sort;

import org.apache.hadoop.mapreduce.Counter;

/** The task counters the map output path updates. */
public record MapOutputCounters(Counter outputRecords, Counter outputBytes, Counter spilledRecords,
                                Counter materializedBytes) {
}
