package io.vivace.segment;

import java.io.IOException;

/**
 * A sorted run of serialised records belonging to one reduce partition, produced by one map
 * (or by an intermediate merge). Records are stored in {@link SegmentWriter}'s format, raw or as
 * one compressed stream of that format.
 */
public interface Segment {

  /** Bytes the segment occupies in its storage (compressed bytes when compressed). */
  long length();

  /** True when the records live on the heap (they count against the shuffle memory budget). */
  boolean inMemory();

  /**
   * True when an open reader holds a file handle or a decompressor, so that a merge bounds how many
   * it opens at once (see SegmentMerger). Raw in-memory segments are read in place and cost nothing
   * to open.
   */
  boolean streamed();

  /** How the segment is stored. */
  SegmentCodec codec();

  SegmentReader open() throws IOException;

  /**
   * Writes the segment's {@link #length()} bytes as they are stored (compressed when the segment is),
   * for a reader on another host, which stores them as a segment of the same codec.
   */
  void copyStoredBytesTo(java.io.OutputStream out) throws IOException;

  /** Gives back the memory or disk the segment holds; further reads are not allowed. */
  void release();
}
