package io.vivace.shuffle;

import java.io.IOException;

/**
 * A sorted run of serialised records belonging to one reduce partition, produced by one map
 * (or by an intermediate merge). Records are stored in {@link SegmentWriter}'s format.
 */
public interface Segment {

  /** Bytes the segment occupies in its storage. */
  long length();

  /** True when the records live on the heap (they count against the shuffle memory budget). */
  boolean inMemory();

  SegmentReader open() throws IOException;

  /** Gives back the memory or disk the segment holds; further reads are not allowed. */
  void release();
}
