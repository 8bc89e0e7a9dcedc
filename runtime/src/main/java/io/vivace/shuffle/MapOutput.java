package io.vivace.shuffle;

import io.vivace.segment.Segment;
/** The final output of one successful map attempt: one segment per reduce partition (null if empty). */
public final class MapOutput {

  private final Segment[] partitions;

  public MapOutput(Segment[] partitions) {
    this.partitions = partitions;
  }

  public Segment partition(int p) {
    return partitions[p];
  }

  public int partitions() {
    return partitions.length;
  }

  public long totalBytes() {
    long total = 0;
    for (Segment s : partitions) {
      if (s != null) {
        total += s.length();
      }
    }
    return total;
  }

  public void release() {
    for (Segment s : partitions) {
      if (s != null) {
        s.release();
      }
    }
  }
}
