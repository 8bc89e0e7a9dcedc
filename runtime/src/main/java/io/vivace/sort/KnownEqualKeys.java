package io.vivace.sort;

import org.apache.hadoop.mapred.RawKeyValueIterator;

/** Sorted records that know when a record's key is the previous record's key, byte for byte. */
public interface KnownEqualKeys extends RawKeyValueIterator {

  /**
   * True when {@code bytes} at {@code offset} is the current record's key in place and that key
   * is byte for byte the previous record's; false otherwise, or when it is not known.
   */
  boolean currentKeyRepeats(byte[] bytes, int offset);
}
