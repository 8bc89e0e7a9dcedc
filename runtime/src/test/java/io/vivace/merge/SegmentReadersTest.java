package io.vivace.merge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.segment.FileSegment;
import io.vivace.segment.MemorySegment;
import io.vivace.segment.PartitionedFileWriter;
import io.vivace.segment.Segment;
import io.vivace.segment.SegmentReader;
import io.vivace.segment.SegmentWriter;
import io.vivace.shuffle.ShuffleMemory;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.WritableUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading back what {@link SegmentWriter} wrote, from a file (through a 128 KB read buffer) and
 * from memory: every key and value must come back byte for byte whatever its size and wherever it
 * falls relative to the buffer, and segments must stay within their byte range.
 */
class SegmentReadersTest {

  private static final int READ_BUFFER = 128 * 1024;

  @TempDir
  Path dir;

  private int names;

  /** Raw key and value bytes of one record. */
  record Raw(byte[] key, byte[] value) {
    @Override
    public String toString() {
      return "Raw[" + key.length + "," + value.length + "]";
    }
  }

  private static byte[] bytes(Random random, int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  private static void write(SegmentWriter writer, List<Raw> records) throws IOException {
    for (Raw r : records) {
      writer.append(r.key(), 0, r.key().length, r.value(), 0, r.value().length);
    }
  }

  /** The records as the only partition of a new file, at offset 0. */
  private FileSegment fileSegment(List<Raw> records) throws IOException {
    PartitionedFileWriter out = new PartitionedFileWriter(newFile(), 1);
    write(out.startPartition(0), records);
    FileSegment segment = out.finish()[0];
    assertNotNull(segment, "non-empty partition");
    return segment;
  }

  private File newFile() {
    return dir.resolve("f" + (names++) + ".out").toFile();
  }

  private static MemorySegment memorySegment(List<Raw> records, int offset) throws IOException {
    DataOutputBuffer out = new DataOutputBuffer();
    out.write(new byte[offset]);
    SegmentWriter writer = new SegmentWriter(out);
    write(writer, records);
    out.write(new byte[] {1, 2, 3}); // trailing bytes beyond the segment must not be read
    return new MemorySegment(out.getData(), offset, (int) writer.position(), null);
  }

  private static byte[] remaining(DataInputBuffer in) {
    return Arrays.copyOfRange(in.getData(), in.getPosition(), in.getLength());
  }

  private static void assertReadsBack(List<Raw> expected, Segment segment) throws IOException {
    try (SegmentReader reader = segment.open()) {
      for (int i = 0; i < expected.size(); i++) {
        assertTrue(reader.next(), "record " + i + " of " + expected.size() + " is missing");
        assertArrayEquals(expected.get(i).key(), remaining(reader.key()), "key of record " + i);
        assertArrayEquals(expected.get(i).value(), remaining(reader.value()), "value of record " + i);
      }
      assertFalse(reader.next(), "no records beyond the segment's length");
      assertFalse(reader.next());
    }
  }

  private static long encodedLength(List<Raw> records) {
    long n = 0;
    for (Raw r : records) {
      n += WritableUtils.getVIntSize(r.key().length) + WritableUtils.getVIntSize(r.value().length)
          + r.key().length + r.value().length;
    }
    return n;
  }

  @Test
  void randomRecordSizesAcrossManyBufferBoundaries() throws Exception {
    Random random = new Random(1);
    List<Raw> records = new ArrayList<>();
    long total = 0;
    while (total < 6L * READ_BUFFER) {
      Raw r = new Raw(bytes(random, random.nextInt(300)), bytes(random, random.nextInt(5_000)));
      records.add(r);
      total += r.key().length + r.value().length;
    }
    FileSegment file = fileSegment(records);
    assertEquals(encodedLength(records), file.length());
    assertReadsBack(records, file);
    assertReadsBack(records, memorySegment(records, 13));
  }

  @Test
  void recordHeadersStraddlingTheReadBufferBoundary() throws Exception {
    Random random = new Random(2);
    // The first record is sized so the second record's header (a 2-byte and a 4-byte vint)
    // starts d bytes before the end of the first buffer fill, for every d from 0 to 9.
    for (int d = 0; d <= 9; d++) {
      int firstValue = READ_BUFFER - d - 1 - WritableUtils.getVIntSize(READ_BUFFER);
      List<Raw> records = List.of(
          new Raw(new byte[0], bytes(random, firstValue)),
          new Raw(bytes(random, 200), bytes(random, 70_000)),
          new Raw(bytes(random, 3), bytes(random, 2)),
          new Raw(new byte[0], new byte[0]));
      assertEquals(READ_BUFFER - d, encodedLength(records.subList(0, 1)), "layout for d=" + d);
      assertReadsBack(records, fileSegment(records));
      assertReadsBack(records, memorySegment(records, d));
    }
  }

  @Test
  void recordBodiesStraddlingTheReadBufferBoundary() throws Exception {
    Random random = new Random(3);
    for (int d = 1; d <= 4; d++) {
      int firstValue = READ_BUFFER - 100 - 1 - WritableUtils.getVIntSize(READ_BUFFER);
      List<Raw> records = List.of(
          new Raw(new byte[0], bytes(random, firstValue)),
          // header (2 bytes) + key ends d bytes after the boundary: the key is split
          new Raw(bytes(random, 98 + d), bytes(random, 50)),
          new Raw(bytes(random, 10), bytes(random, 10)));
      assertReadsBack(records, fileSegment(records));
    }
  }

  @Test
  void recordsLargerThanTheReadBuffer() throws Exception {
    Random random = new Random(4);
    List<Raw> records = List.of(
        new Raw(bytes(random, 5), bytes(random, 10)),
        new Raw(bytes(random, READ_BUFFER), bytes(random, 3 * READ_BUFFER + 17)),
        new Raw(bytes(random, 1), bytes(random, 1)),
        new Raw(bytes(random, 2 * READ_BUFFER + 5), new byte[0]),
        new Raw(bytes(random, 7), bytes(random, READ_BUFFER - 1)),
        new Raw(new byte[0], bytes(random, READ_BUFFER + 1)));
    assertReadsBack(records, fileSegment(records));
    assertReadsBack(records, memorySegment(records, 0));
  }

  @Test
  void zeroLengthKeysAndValues() throws Exception {
    Random random = new Random(5);
    List<Raw> records = new ArrayList<>();
    records.add(new Raw(new byte[0], new byte[0]));
    records.add(new Raw(new byte[0], bytes(random, 5)));
    records.add(new Raw(bytes(random, 5), new byte[0]));
    records.add(new Raw(new byte[0], new byte[0]));
    assertReadsBack(records, fileSegment(records));
    assertReadsBack(records, memorySegment(records, 3));

    // a segment of nothing but empty records, long enough to span several buffer fills
    List<Raw> empties = new ArrayList<>();
    for (int i = 0; i < 3 * READ_BUFFER / 2 + 1; i++) {
      empties.add(new Raw(new byte[0], new byte[0]));
    }
    FileSegment file = fileSegment(empties);
    assertEquals(2L * empties.size(), file.length(), "two one-byte vint lengths per record");
    assertReadsBack(empties, file);
    assertReadsBack(empties, memorySegment(empties, 1));
  }

  @Test
  void partitionsOfOneFileStayWithinTheirRanges() throws Exception {
    Random random = new Random(6);
    List<List<Raw>> partitions = new ArrayList<>();
    for (int p = 0; p < 5; p++) {
      List<Raw> records = new ArrayList<>();
      if (p != 1 && p != 3) {
        for (int i = 0; i < 100 * (p + 1); i++) {
          records.add(new Raw(bytes(random, random.nextInt(40)), bytes(random, random.nextInt(3_000))));
        }
      }
      partitions.add(records);
    }
    File file = newFile();
    PartitionedFileWriter out = new PartitionedFileWriter(file, 5);
    for (int p = 0; p < 5; p++) {
      if (p != 3) { // partition 3 is never started, partition 1 is started but stays empty
        write(out.startPartition(p), partitions.get(p));
      }
    }
    FileSegment[] segments = out.finish();
    long sum = 0;
    for (int p = 0; p < 5; p++) {
      if (partitions.get(p).isEmpty()) {
        assertNull(segments[p], "empty partition " + p);
      } else {
        assertEquals(encodedLength(partitions.get(p)), segments[p].length());
        sum += segments[p].length();
      }
    }
    assertEquals(file.length(), sum, "the file holds exactly the partitions' bytes");
    // read in reverse order: each segment is independent of the others
    for (int p = 4; p >= 0; p--) {
      if (segments[p] != null) {
        assertReadsBack(partitions.get(p), segments[p]);
      }
    }
  }

  @Test
  void partitionsMustBeWrittenInIncreasingOrder() throws Exception {
    PartitionedFileWriter out = new PartitionedFileWriter(newFile(), 3);
    out.startPartition(1);
    assertThrows(IllegalStateException.class, () -> out.startPartition(1));
    assertThrows(IllegalStateException.class, () -> out.startPartition(0));
    out.discard();
  }

  @Test
  void fileIsDeletedWhenItsLastSegmentIsReleased() throws Exception {
    File file = newFile();
    PartitionedFileWriter out = new PartitionedFileWriter(file, 3);
    for (int p = 0; p < 3; p++) {
      write(out.startPartition(p), List.of(new Raw(new byte[] {(byte) p}, new byte[] {1})));
    }
    FileSegment[] segments = out.finish();
    segments[0].release();
    segments[0].release(); // releasing twice must not count twice
    assertTrue(file.exists(), "two partitions still need the file");
    segments[2].release();
    assertTrue(file.exists(), "one partition still needs the file");
    assertReadsBack(List.of(new Raw(new byte[] {1}, new byte[] {1})), segments[1]);
    segments[1].release();
    assertFalse(file.exists());
  }

  @Test
  void fileWithOnlyEmptyPartitionsIsNotKept() throws Exception {
    File file = newFile();
    PartitionedFileWriter out = new PartitionedFileWriter(file, 4);
    out.startPartition(0);
    out.startPartition(2);
    FileSegment[] segments = out.finish();
    for (FileSegment s : segments) {
      assertNull(s);
    }
    assertFalse(file.exists());
  }

  @Test
  void memorySegmentGivesItsBytesBackOnce() throws Exception {
    ShuffleMemory memory = new ShuffleMemory(1_000);
    List<Raw> records = List.of(new Raw(new byte[] {1, 2}, new byte[] {3}), new Raw(new byte[0], new byte[0]));
    DataOutputBuffer out = new DataOutputBuffer();
    SegmentWriter writer = new SegmentWriter(out);
    write(writer, records);
    int length = (int) writer.position();
    assertTrue(memory.tryReserve(length));
    MemorySegment segment = new MemorySegment(out.getData(), 0, length, memory::release);
    assertTrue(segment.inMemory());
    assertEquals(length, segment.length());
    assertReadsBack(records, segment);
    segment.release();
    segment.release();
    assertEquals(0, memory.used());
    assertThrows(IllegalStateException.class, segment::open, "a released segment cannot be read");
  }

  @Test
  void truncatedFileSegmentFailsInsteadOfReturningGarbage() throws Exception {
    Random random = new Random(7);
    List<Raw> records = List.of(new Raw(bytes(random, 10), bytes(random, 500)),
        new Raw(bytes(random, 10), bytes(random, 500)));
    FileSegment whole = fileSegment(records);
    // the index claims more bytes than the file has
    FileSegment tooLong = new FileSegment(whole.file(), 0, whole.length() + 100, null);
    assertThrows(IOException.class, () -> {
      try (SegmentReader r = tooLong.open()) {
        while (r.next()) {
          // read to the end
        }
      }
    });
    // the range ends inside the second record
    FileSegment cut = new FileSegment(whole.file(), 0, whole.length() - 50, null);
    assertThrows(IOException.class, () -> {
      try (SegmentReader r = cut.open()) {
        while (r.next()) {
          // read to the end
        }
      }
    });
  }
}
