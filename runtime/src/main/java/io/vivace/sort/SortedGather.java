package io.vivace.sort;

import io.vivace.shuffle.SegmentWriter;
import io.vivace.shuffle.VarInts;
import java.io.IOException;

/**
 * Writes the records of a sorted {@link MapOutputBuffer} partition in segment format, as {@link
 * SortedRun} and {@link SegmentWriter#append} would record by record, but a batch at a time: in
 * sorted order every record is a random read out of the sort buffer (a cache and TLB miss for its
 * index entry and another for its bytes), and a loop that handles one record through the writer's
 * layers reaches the next record's miss only after the last one was served. Here a first pass over a
 * batch loads the index entries of all its records and touches each one's first byte, so that their
 * misses are in flight together; a second pass copies the then cached records into a block that is
 * handed to the writer in one piece.
 */
final class SortedGather {

  /** Records whose misses are started together: about what a core keeps in flight. */
  private static final int BATCH = 32;
  private static final int BLOCK_BYTES = 64 * 1024;
  /** Two vint headers at most. */
  private static final int MAX_HEADER_BYTES = 10;

  private final int[] keyStarts = new int[BATCH];
  private final int[] valueStarts = new int[BATCH];
  private final int[] valueEnds = new int[BATCH];
  private final byte[] block = new byte[BLOCK_BYTES];
  /** Keeps the touching loads from being optimised away. */
  private int touched;

  /** Appends the records at positions {@code from..to} of {@code order} to {@code out}. */
  void write(byte[] data, int[] meta, int[] order, int from, int to, SegmentWriter out)
      throws IOException {
    int filled = 0;
    int blockRecords = 0;
    for (int batchStart = from; batchStart < to; batchStart += BATCH) {
      int n = Math.min(BATCH, to - batchStart);
      int touch = 0;
      for (int j = 0; j < n; j++) {
        int m = order[batchStart + j] * MapOutputBuffer.META_INTS;
        int keyStart = meta[m + MapOutputBuffer.KEY_START];
        keyStarts[j] = keyStart;
        valueStarts[j] = meta[m + MapOutputBuffer.VALUE_START];
        valueEnds[j] = meta[m + MapOutputBuffer.VALUE_END];
        touch += data[keyStart];
      }
      touched += touch;
      for (int j = 0; j < n; j++) {
        int keyStart = keyStarts[j];
        int valueStart = valueStarts[j];
        int end = valueEnds[j];
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
    }
    if (filled > 0) {
      out.appendFormatted(block, 0, filled, blockRecords);
    }
  }
}
