package io.vivace.sort;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vivace.segment.SegmentWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.Test;

/**
 * The batched gather writes exactly the bytes and record count that reading the sorted records one
 * by one ({@link SortedRun}) and appending each to a {@link SegmentWriter} gives: records of every
 * size from empty to larger than its block, in batches and blocks that do not divide the run.
 */
class SortedGatherTest {

  @Test
  void writesTheSameSegmentAsAppendingTheSortedRecordsOneByOne() throws IOException {
    Random random = new Random(7);
    DataOutputBuffer data = new DataOutputBuffer();
    int records = 5_000;
    int[] meta = new int[records * MapOutputBuffer.META_INTS];
    for (int r = 0; r < records; r++) {
      int m = r * MapOutputBuffer.META_INTS;
      meta[m + MapOutputBuffer.PARTITION] = random.nextInt(3);
      meta[m + MapOutputBuffer.KEY_START] = data.getLength();
      new Text(randomString(random, random.nextInt(20))).write(data);
      meta[m + MapOutputBuffer.VALUE_START] = data.getLength();
      // mostly small values, some around and above the gather's 64 KB block, some empty
      int valueBytes = r % 997 == 0 ? 70_000 + random.nextInt(5_000)
          : r % 331 == 0 ? 65_520 + random.nextInt(30) : r % 7 == 0 ? 0 : random.nextInt(300);
      byte[] value = new byte[valueBytes];
      random.nextBytes(value);
      data.write(value);
      meta[m + MapOutputBuffer.VALUE_END] = data.getLength();
    }
    IndexSorter sorter = new IndexSorter(Text.Comparator.class.cast(new Text.Comparator()), new SortBuffers());
    sorter.sort(data.getData(), meta, records, 3);

    SortedGather gather = new SortedGather();
    for (int p = 0; p < 3; p++) {
      int from = sorter.partitionStart(p);
      int to = sorter.partitionStart(p + 1);
      ByteArrayOutputStream expectedBytes = new ByteArrayOutputStream();
      SegmentWriter expected = new SegmentWriter(expectedBytes);
      SortedRun run = new SortedRun(data.getData(), meta, sorter, from, to);
      while (run.next()) {
        expected.append(run.getKey(), run.getValue());
      }
      ByteArrayOutputStream gatheredBytes = new ByteArrayOutputStream();
      SegmentWriter gathered = new SegmentWriter(gatheredBytes);
      gather.write(data.getData(), meta, sorter.order(), from, to, gathered);

      assertEquals(to - from, gathered.records(), "records of partition " + p);
      assertEquals(expected.position(), gathered.position(), "bytes of partition " + p);
      assertArrayEquals(expectedBytes.toByteArray(), gatheredBytes.toByteArray(), "partition " + p);
    }
  }

  /**
   * Equal keys keep their input order, so a first record of every length from 0 to 130 bytes
   * shifts where the 100-byte records after it fall in the 64 KB block: one of the shifts leaves
   * less room at a block's end than a record plus its real headers but not less than the record
   * alone, and others hit each byte around the block's end.
   */
  @Test
  void recordsEndingAtEveryOffsetAroundTheBlockEndAreWrittenWhole() throws IOException {
    int records = 1_400;
    for (int pad = 0; pad <= 130; pad++) {
      DataOutputBuffer data = new DataOutputBuffer();
      int[] meta = new int[records * MapOutputBuffer.META_INTS];
      for (int r = 0; r < records; r++) {
        int m = r * MapOutputBuffer.META_INTS;
        meta[m + MapOutputBuffer.KEY_START] = data.getLength();
        new Text("").write(data);
        meta[m + MapOutputBuffer.VALUE_START] = data.getLength();
        data.write(new byte[r == 0 ? pad : 100]);
        meta[m + MapOutputBuffer.VALUE_END] = data.getLength();
      }
      IndexSorter sorter = new IndexSorter(new Text.Comparator(), new SortBuffers());
      sorter.sort(data.getData(), meta, records, 1);

      ByteArrayOutputStream expectedBytes = new ByteArrayOutputStream();
      SegmentWriter expected = new SegmentWriter(expectedBytes);
      SortedRun run = new SortedRun(data.getData(), meta, sorter, 0, records);
      while (run.next()) {
        expected.append(run.getKey(), run.getValue());
      }
      ByteArrayOutputStream gatheredBytes = new ByteArrayOutputStream();
      SegmentWriter gathered = new SegmentWriter(gatheredBytes);
      new SortedGather().write(data.getData(), meta, sorter.order(), 0, records, gathered);

      assertEquals(records, gathered.records(), "records after a first record of " + pad + " bytes");
      assertArrayEquals(expectedBytes.toByteArray(), gatheredBytes.toByteArray(),
          "segment after a first record of " + pad + " bytes");
    }
  }

  private static String randomString(Random random, int length) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < length; i++) {
      s.append((char) ('a' + random.nextInt(26)));
    }
    return s.toString();
  }
}
