package io.vivace.sort;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.segment.Segment;
import io.vivace.segment.SegmentCodec;
import io.vivace.shuffle.MapOutput;
import io.vivace.shuffle.ShuffleMemory;
import java.util.List;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.BZip2Codec;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.io.compress.Lz4Codec;
import org.apache.hadoop.io.compress.SnappyCodec;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.util.ReflectionUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every case of {@link MapOutputBufferTest} again with map output compression, once per codec
 * Hadoop ships that works without libhadoop: spills, intermediate merges and the output (in memory
 * or on disk) are compressed segments, and every pooled compressor and decompressor goes back to
 * Hadoop's CodecPool.
 */
class CompressedMapOutputBufferTest {

  /** The shared cases plus compression's own, for one codec. */
  abstract static class WithCodec extends MapOutputBufferTest {
    private SegmentCodec codec;
    private int compressorsBefore;
    private int decompressorsBefore;

    abstract Class<? extends CompressionCodec> codecClass();

    @Override
    SegmentCodec codec() {
      if (codec == null) {
        codec = SegmentCodec.of(ReflectionUtils.newInstance(codecClass(), conf));
      }
      return codec;
    }

    @BeforeEach
    void leasesBefore() {
      compressorsBefore = CodecPool.getLeasedCompressorsCount(codec().codec());
      decompressorsBefore = CodecPool.getLeasedDecompressorsCount(codec().codec());
    }

    @AfterEach
    void everyCompressorAndDecompressorWentBackToThePool() {
      assertEquals(compressorsBefore, CodecPool.getLeasedCompressorsCount(codec().codec()),
          "compressors leased and not returned");
      assertEquals(decompressorsBefore, CodecPool.getLeasedDecompressorsCount(codec().codec()),
          "decompressors leased and not returned");
    }

    @Test
    void outputInMemoryIsCompressedAndChargedAtItsCompressedSize() throws Exception {
      ShuffleMemory memory = new ShuffleMemory(LARGE);
      MapOutputBuffer<Text, Text> buffer = textBuffer(3, 16 * ONE_MB, 10, memory);
      // values of repeated letters compress well
      List<Rec> records = randomRecords(21, 20_000, 3, 1);
      collectAll(buffer, records);
      MapOutput output = buffer.finish();

      assertOutputHolds(output, records, 3);
      assertTrue(allInMemory(output, true));
      for (int p = 0; p < 3; p++) {
        Segment s = output.partition(p);
        assertEquals(codec(), s.codec(), "partition " + p + " is stored with the job's codec");
        assertTrue(s.streamed(), "a compressed segment is decompressed as it is read");
      }
      assertEquals(output.totalBytes(), memory.used(), "the budget is charged the compressed bytes");
      long materialized = counter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES);
      assertEquals(output.totalBytes(), materialized);
      assertTrue(materialized < counter(TaskCounter.MAP_OUTPUT_BYTES) * 3 / 4,
          "compressible output: materialized " + materialized + " vs map output bytes "
              + counter(TaskCounter.MAP_OUTPUT_BYTES));
      output.release();
      assertEquals(0, memory.used());
    }

    @Test
    void spilledOutputIsCompressedToo() throws Exception {
      MapOutputBuffer<Text, Text> buffer = textBuffer(2, ONE_MB, 2, new ShuffleMemory(LARGE));
      List<Rec> records = randomRecords(22, 60_000, 2, 1);
      collectAll(buffer, records);
      MapOutput output = buffer.finish();
      assertOutputHolds(output, records, 2);
      assertTrue(allInMemory(output, false));
      assertTrue(counter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES) < counter(TaskCounter.MAP_OUTPUT_BYTES) * 3 / 4,
          "materialized " + counter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES) + " vs map output bytes "
              + counter(TaskCounter.MAP_OUTPUT_BYTES));
      output.release();
      assertEquals(List.of(), filesLeft());
    }
  }

  @Tag("slow")
  @Nested
  class Default extends WithCodec {
    @Override
    Class<? extends CompressionCodec> codecClass() {
      return DefaultCodec.class;
    }
  }

  @Tag("slow")
  @Nested
  class Gzip extends WithCodec {
    @Override
    Class<? extends CompressionCodec> codecClass() {
      return GzipCodec.class;
    }
  }

  @Tag("slow")
  @Nested
  class BZip2 extends WithCodec {
    @Override
    Class<? extends CompressionCodec> codecClass() {
      return BZip2Codec.class;
    }

    @Override
    @Test
    @Disabled("pure-Java bzip2 needs over 15 s for these 600,000 records; the other codecs cover the case")
    void combinedChunksThatDoNotShrinkGoToDisk() {
    }
  }

  @Tag("slow")
  @Nested
  class Snappy extends WithCodec {
    @Override
    Class<? extends CompressionCodec> codecClass() {
      return SnappyCodec.class;
    }
  }

  @Nested
  class Lz4 extends WithCodec {
    @Override
    Class<? extends CompressionCodec> codecClass() {
      return Lz4Codec.class;
    }
  }
}
