package io.vivace.task;

import io.vivace.sort.KnownEqualKeys;
import org.apache.hadoop.io.RawComparator;

/**
 * The combiner's grouping comparator over records that know when a key repeats the previous one
 * byte for byte: comparing the key just read with the record now current (as Hadoop's
 * ReduceContextImpl does after each record) gives 0 without reading either key, since identical
 * bytes compare equal. Any other comparison goes to the job's comparator.
 */
final class RepeatedKeyComparator implements RawComparator<Object> {

  private final RawComparator<Object> grouping;
  private final KnownEqualKeys records;

  @SuppressWarnings("unchecked")
  RepeatedKeyComparator(RawComparator<?> grouping, KnownEqualKeys records) {
    this.grouping = (RawComparator<Object>) grouping;
    this.records = records;
  }

  @Override
  public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
    if (l1 == l2 && records.currentKeyRepeats(b2, s2)) {
      return 0;
    }
    return grouping.compare(b1, s1, l1, b2, s2, l2);
  }

  @Override
  public int compare(Object a, Object b) {
    return grouping.compare(a, b);
  }
}
