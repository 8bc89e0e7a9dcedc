package io.vivace.segment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.merge.MergingIterator;
import io.vivace.merge.SegmentMerger;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.io.compress.BZip2Codec;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.io.compress.Lz4Codec;
import org.apache.hadoop.io.compress.SnappyCodec;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.util.ReflectionUtils;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Map output segments compressed with Hadoop's own codecs (those that work without libhadoop):
 * what a {@link PartitionedWriter} compressed comes back byte for byte from a file and from memory,
 * through merges with intermediate passes, every pooled compressor and decompressor is given back,
 * a cut segment is an error, and a job's codec setting that cannot work is refused up front.
 */
class CompressedSegmentsTest {

  private static final Configuration CONF = new Configuration();

  @TempDir
  Path dir;

  private int names;

  record Raw(byte[] key, byte[] value) {
  }

  private static SegmentCodec codec(String simpleName) throws ClassNotFoundException {
    Class<? extends CompressionCodec> cls = Class.forName("org.apache.hadoop.io.compress." + simpleName)
        .asSubclass(CompressionCodec.class);
    return SegmentCodec.of(ReflectionUtils.newInstance(cls, CONF));
  }

  /** Compressible records: text-like keys, values of repeated words; some empty, some huge. */
  private static List<Raw> records(long seed, int n) {
    Random random = new Random(seed);
    List<Raw> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] key = ("key-" + random.nextInt(1000)).getBytes();
      int words = i % 97 == 0 ? 0 : random.nextInt(40);
      StringBuilder value = new StringBuilder();
      for (int w = 0; w < words; w++) {
        value.append("word").append(random.nextInt(20)).append(' ');
      }
      out.add(new Raw(key, value.toString().getBytes()));
    }
    // larger than the staging buffer, the read buffers and a codec block; compressible, but not
    // so repetitive that pure-Java bzip2's block sort takes its slow path
    byte[] huge = new byte[700_000];
    for (int i = 0; i < huge.length; i++) {
      huge[i] = (byte) ('a' + random.nextInt(16));
    }
    out.add(n / 2, new Raw("huge".getBytes(), huge));
    out.add(new Raw(new byte[0], new byte[0]));
    return out;
  }

  private static long rawBytes(List<Raw> records) {
    long n = 0;
    for (Raw r : records) {
      n += WritableUtils.getVIntSize(r.key().length) + WritableUtils.getVIntSize(r.value().length)
          + r.key().length + r.value().length;
    }
    return n;
  }

  private static void write(SegmentWriter writer, List<Raw> records) throws IOException {
    for (Raw r : records) {
      writer.append(r.key(), 0, r.key().length, r.value(), 0, r.value().length);
    }
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
      assertFalse(reader.next(), "no records beyond the segment's end");
      assertFalse(reader.next());
    }
  }

  private File newFile() {
    return dir.resolve("f" + (names++) + ".out").toFile();
  }

  private List<String> filesLeft() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).toList();
    }
  }

  private static void assertNoLeases(SegmentCodec codec, int compressors, int decompressors) {
    assertEquals(compressors, CodecPool.getLeasedCompressorsCount(codec.codec()),
        "compressors not given back to the pool");
    assertEquals(decompressors, CodecPool.getLeasedDecompressorsCount(codec.codec()),
        "decompressors not given back to the pool");
  }

  @Tag("slow")
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"DefaultCodec", "GzipCodec", "BZip2Codec", "SnappyCodec", "Lz4Codec"})
  void partitionsComeBackFromFileAndMemory(String codecName) throws Exception {
    SegmentCodec codec = codec(codecName);
    int compressors = CodecPool.getLeasedCompressorsCount(codec.codec());
    int decompressors = CodecPool.getLeasedDecompressorsCount(codec.codec());
    List<List<Raw>> partitions = List.of(records(1, 3_000), List.of(), records(2, 10),
        List.of(new Raw(new byte[0], new byte[0])), List.of(), records(3, 20_000));

    PartitionedFileWriter file;
    PartitionedMemoryWriter memory;
    Segment[] onDisk;
    Segment[] inMemory;
    try (SegmentCompressor compressor = codec.newCompressor()) {
      file = new PartitionedFileWriter(newFile(), partitions.size(), compressor);
      memory = new PartitionedMemoryWriter(partitions.size(), 1024, compressor);
      for (int p = 0; p < partitions.size(); p++) {
        // every partition is started, as the map side does, even those without records
        write(file.startPartition(p), partitions.get(p));
      }
      onDisk = file.finish();
      for (int p = 0; p < partitions.size(); p++) {
        write(memory.startPartition(p), partitions.get(p));
      }
      memory.finish();
      inMemory = memory.memorySegments(null);
    }
    assertEquals(file.bytes(), memory.bytes(), "the same bytes whatever the destination");
    for (int p = 0; p < partitions.size(); p++) {
      List<Raw> records = partitions.get(p);
      if (records.isEmpty()) {
        assertNull(onDisk[p], "partition " + p + " has no records and no segment");
        assertNull(inMemory[p]);
        continue;
      }
      assertSame(codec, onDisk[p].codec());
      assertTrue(onDisk[p].streamed() && inMemory[p].streamed());
      assertReadsBack(records, onDisk[p]);
      assertReadsBack(records, inMemory[p]);
      if (records.size() > 100) {
        assertTrue(onDisk[p].length() < rawBytes(records) * 9 / 10, codecName + " partition " + p + ": "
            + onDisk[p].length() + " compressed bytes of " + rawBytes(records));
      }
    }
    assertNoLeases(codec, compressors, decompressors);
    for (Segment s : onDisk) {
      if (s != null) {
        s.release();
      }
    }
    assertEquals(List.of(), filesLeft(), "the file goes with its last segment");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"DefaultCodec", "GzipCodec", "BZip2Codec", "SnappyCodec", "Lz4Codec"})
  void aReaderGivesItsDecompressorBackAtTheEndOfItsSegment(String codecName) throws Exception {
    SegmentCodec codec = codec(codecName);
    int decompressors = CodecPool.getLeasedDecompressorsCount(codec.codec());
    PartitionedMemoryWriter out = new PartitionedMemoryWriter(1, 1024, codec.newCompressor());
    write(out.startPartition(0), records(4, 50));
    out.finish();
    Segment segment = out.memorySegments(null)[0];
    SegmentReader reader = segment.open();
    if (!codecName.equals("GzipCodec")) { // Hadoop does not pool its pure-Java gzip decompressor
      assertEquals(decompressors + 1, CodecPool.getLeasedDecompressorsCount(codec.codec()));
    }
    while (reader.next()) {
      // a merge keeps exhausted readers open until it ends
    }
    assertEquals(decompressors, CodecPool.getLeasedDecompressorsCount(codec.codec()),
        "given back as soon as the segment is read");
    reader.close();
    reader.close();
    assertEquals(decompressors, CodecPool.getLeasedDecompressorsCount(codec.codec()), "and only once");
  }

  @Tag("slow")
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"DefaultCodec", "GzipCodec", "BZip2Codec", "SnappyCodec", "Lz4Codec"})
  void aCutCompressedSegmentFailsInsteadOfEndingEarly(String codecName) throws Exception {
    SegmentCodec codec = codec(codecName);
    List<Raw> records = records(5, 30_000);
    FileSegment whole;
    try (SegmentCompressor compressor = codec.newCompressor()) {
      PartitionedFileWriter out = new PartitionedFileWriter(newFile(), 1, compressor);
      write(out.startPartition(0), records);
      whole = out.finish()[0];
    }
    assertReadsBack(records, whole);
    // records lost at the end, or half of them: codec streams may end quietly at a block boundary
    for (long length : new long[] {whole.length() - 200, whole.length() / 2, 0}) {
      FileSegment cut = new FileSegment(whole.file(), 0, length, null, codec);
      assertThrows(IOException.class, () -> {
        try (SegmentReader r = cut.open()) {
          while (r.next()) {
            // read to the end
          }
        }
      }, codecName + ", segment of " + length + " bytes instead of " + whole.length());
    }
    assertNoLeases(codec, 0, 0);
  }

  /** BytesWritable keys sorted by their raw comparator, values naming their segment. */
  private static List<Raw> sortedRun(Random random, int segment, int n) throws IOException {
    List<Raw> run = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      BytesWritable key = new BytesWritable(("k" + random.nextInt(5_000)).getBytes());
      org.apache.hadoop.io.DataOutputBuffer kb = new org.apache.hadoop.io.DataOutputBuffer();
      key.write(kb);
      run.add(new Raw(Arrays.copyOf(kb.getData(), kb.getLength()), ("s" + segment + "#" + i).getBytes()));
    }
    RawComparator<?> order = WritableComparator.get(BytesWritable.class);
    run.sort(rawOrder(order));
    return run;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Comparator<Raw> rawOrder(RawComparator order) {
    return (a, b) -> order.compare(a.key(), 0, a.key().length, b.key(), 0, b.key().length);
  }

  /**
   * Three compressed files and {@code inMemory} compressed in-memory segments, merged with a factor
   * of 2: the files are merged in passes; in-memory ones only beyond
   * SegmentMerger.COMPRESSED_IN_MEMORY_STREAMS. The merged stream is the sorted union of the inputs.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"DefaultCodec", "GzipCodec", "BZip2Codec", "SnappyCodec", "Lz4Codec"})
  void compressedSegmentsMergeInPassesThroughCompressedFiles(String codecName) throws Exception {
    mergeInPasses(codecName, 6);
    if (codecName.equals("SnappyCodec") || codecName.equals("DefaultCodec")) {
      mergeInPasses(codecName, SegmentMerger.COMPRESSED_IN_MEMORY_STREAMS + 6);
    }
  }

  private void mergeInPasses(String codecName, int inMemory) throws Exception {
    SegmentCodec codec = codec(codecName);
    Random random = new Random(6);
    RawComparator<?> order = WritableComparator.get(BytesWritable.class);
    List<Raw> all = new ArrayList<>();
    List<Segment> segments = new ArrayList<>();
    Path mergeDir = Files.createDirectory(dir.resolve("merges" + inMemory));
    try (SegmentCompressor compressor = codec.newCompressor()) {
      for (int s = 0; s < 3 + inMemory; s++) {
        List<Raw> run = sortedRun(random, s, 100 + random.nextInt(inMemory > 10 ? 200 : 2_000));
        all.addAll(run);
        if (s < 3) {
          PartitionedFileWriter out = new PartitionedFileWriter(newFile(), 1, compressor);
          write(out.startPartition(0), run);
          segments.add(out.finish()[0]);
        } else {
          PartitionedMemoryWriter out = new PartitionedMemoryWriter(1, 256, compressor);
          write(out.startPartition(0), run);
          out.finish();
          segments.add(out.memorySegments(null)[0]);
        }
      }
    }
    all.sort(rawOrder(order));
    int compressors = CodecPool.getLeasedCompressorsCount(codec.codec());
    int decompressors = CodecPool.getLeasedDecompressorsCount(codec.codec());
    SegmentMerger merger = new SegmentMerger(order, 2, mergeDir.toFile(), codec);
    List<Raw> merged = new ArrayList<>();
    try (MergingIterator it = merger.merge(segments)) {
      assertTrue(merger.spilledRecords() > 0, "three compressed files with a factor of 2 need a pass");
      try (Stream<Path> files = Files.list(mergeDir)) {
        long intermediates = files.count();
        long expected = inMemory > SegmentMerger.COMPRESSED_IN_MEMORY_STREAMS ? 2 : 1;
        assertEquals(expected, intermediates, "intermediate files read by the final pass");
      }
      assertEquals(compressors, CodecPool.getLeasedCompressorsCount(codec.codec()),
          "the passes' compressor is back before the final pass");
      while (it.next()) {
        merged.add(new Raw(remaining(it.getKey()), remaining(it.getValue())));
      }
    }
    assertEquals(all.size(), merged.size());
    for (int i = 1; i < merged.size(); i++) {
      assertTrue(rawOrder(order).compare(merged.get(i - 1), merged.get(i)) <= 0, "out of order at " + i);
    }
    Comparator<Raw> total = rawOrder(order).thenComparing(r -> new String(r.value()));
    List<Raw> expected = new ArrayList<>(all);
    expected.sort(total);
    merged.sort(total);
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i).value(), merged.get(i).value(), "record " + i);
    }
    assertNoLeases(codec, compressors, decompressors);
    try (Stream<Path> files = Files.list(mergeDir)) {
      assertEquals(0, files.count(), "intermediate files are deleted when the merge closes");
    }
    segments.forEach(Segment::release);
  }

  // ---- the job's setting -----------------------------------------------------------------

  private static Configuration jobConf(String codecClass) {
    Configuration conf = new Configuration(false);
    conf.setBoolean(MRJobConfig.MAP_OUTPUT_COMPRESS, true);
    if (codecClass != null) {
      conf.set(MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC, codecClass);
    }
    return conf;
  }

  @Test
  void compressionOffMeansRawSegments() throws Exception {
    assertSame(SegmentCodec.NONE, SegmentCodec.forJob(new Configuration(false)));
    Configuration off = jobConf(SnappyCodec.class.getName());
    off.setBoolean(MRJobConfig.MAP_OUTPUT_COMPRESS, false);
    assertSame(SegmentCodec.NONE, SegmentCodec.forJob(off), "a codec alone does not turn compression on");
  }

  @Test
  void compressionWithoutACodecUsesHadoopsDefaultCodec() throws Exception {
    assertEquals(DefaultCodec.class, SegmentCodec.forJob(jobConf(null)).codec().getClass());
    assertEquals(Lz4Codec.class, SegmentCodec.forJob(jobConf(" " + Lz4Codec.class.getName() + " "))
        .codec().getClass());
  }

  @Test
  void theOldApiKeysWorkToo() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setBoolean("mapred.compress.map.output", true);
    conf.set("mapred.map.output.compression.codec", GzipCodec.class.getName());
    assertEquals(GzipCodec.class, SegmentCodec.forJob(conf).codec().getClass());
  }

  @Test
  void aNativeOnlyCodecWithoutLibhadoopIsRefusedNamingTheKeyAndClass() {
    String zstd = "org.apache.hadoop.io.compress.ZStandardCodec";
    IOException e = assertThrows(IOException.class, () -> SegmentCodec.forJob(jobConf(zstd)));
    assertTrue(e.getMessage().contains(MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC + "=" + zstd), e.getMessage());
    assertTrue(e.getMessage().contains(MRJobConfig.MAP_OUTPUT_COMPRESS + "=true"), e.getMessage());
    assertTrue(e.getMessage().contains("native zStandard library not available"), e.getMessage());
  }

  @Test
  void aMissingOrWrongClassIsRefusedNamingTheKeyAndClass() {
    IOException missing = assertThrows(IOException.class,
        () -> SegmentCodec.forJob(jobConf("com.example.NoSuchCodec")));
    assertTrue(missing.getMessage().contains(
        MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC + "=com.example.NoSuchCodec: class not found"), missing.getMessage());
    IOException notACodec = assertThrows(IOException.class,
        () -> SegmentCodec.forJob(jobConf("java.lang.String")));
    assertTrue(notACodec.getMessage().contains(MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC
        + "=java.lang.String: not a org.apache.hadoop.io.compress.CompressionCodec"), notACodec.getMessage());
  }

  @Test
  void rawSegmentsReadTheirExactRangeOfAFile() throws Exception {
    List<Raw> records = records(7, 100);
    PartitionedFileWriter out = new PartitionedFileWriter(newFile(), 3);
    write(out.startPartition(0), records);
    write(out.startPartition(2), records);
    FileSegment[] segments = out.finish();
    assertNotNull(segments[2]);
    assertFalse(segments[2].codec().compresses());
    assertEquals(rawBytes(records), segments[2].length(), "raw segments are the records and their lengths");
    assertReadsBack(records, segments[0]);
    assertReadsBack(records, segments[2]);
  }
}
