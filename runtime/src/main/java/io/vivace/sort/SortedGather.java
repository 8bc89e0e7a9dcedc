package io.vivace.sort;

import io.vivace.segment.SegmentWriter;
import io.vivace.segment.VarInts;
import java.io.IOException;

/**
 * Writes the records of a sorted {@link MapOutputBuffer} partition in segment format, as {@link
 * SortedRun} and {@link SegmentWriter#append} would record by record, but copied straight out of the
 * sort buffer into a 64 KB block that is handed to the writer in one piece. In sorted order every
 * record is a random read out of the sort buffer (cache and TLB misses for its index entry and its
 * bytes); a short loop lets the core start the next records' misses while earlier ones are served,
 * where a record's trip through the reader's and the writer's layers kept them one after another.
 */
final class SortedGather {

  private static final int BLOCK_BYTES = 64 * 1024;
  /** Two vint headers at most. */
  private static final int MAX_HEADER_BYTES = 10;

  private final byte[] block = new byte[BLOCK_BYTES];

  /** Appends the records at positions {@code from..to} of {@code order} to {@code out}. */
  void write(byte[] data, int[] meta, int[] order, int from, int to, SegmentWriter out)
      throws IOException {
    int filled = 0;
    int blockRecords = 0;
    for (int i = from; i < to; i++) {
      int m = order[i] * MapOutputBuffer.META_INTS;
      int keyStart = meta[m + MapOutputBuffer.KEY_START];
      int valueStart = meta[m + MapOutputBuffer.VALUE_START];
      int end = meta[m + MapOutputBuffer.VALUE_END];
      int bytes = end - keyStart;
      if (filled + MAX_HEADER_BYTES + bytes > BLOCK_BYTES) {
        out.appendFormatted(block, 0, filled, blockRecords);
        filled = 0;
        blockRecords = 0;
        if (MAX_HEADER_BYTES + bytes > BLOCK_BYTES) {
          out.append(data, keyStart, valueStart - keyStart, data, valueStart, end - valueStart);
          continue;
        }
      }
      filled = VarInts.write(valueStart - keyStart, block, filled);
      filled = VarInts.write(end - valueStart, block, filled);
      System.arraycopy(data, keyStart, block, filled, bytes);
      filled += bytes;
      blockRecords++;
    }
    if (filled > 0) {
      out.appendFormatted(block, 0, filled, blockRecords);
    }
  }
}
