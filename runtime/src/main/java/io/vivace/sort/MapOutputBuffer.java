package io.vivace.sort;

import io.vivace.localdisk.ScratchDir;
import io.vivace.merge.SegmentMerger;
import io.vivace.segment.PartitionedFileWriter;
import io.vivace.segment.PartitionedMemoryWriter;
import io.vivace.segment.PartitionedWriter;
import io.vivace.segment.Segment;
import io.vivace.segment.SegmentCodec;
import io.vivace.segment.SegmentCompressor;
import io.vivace.segment.SegmentWriter;
import io.vivace.segment.VarInts;
import io.vivace.shuffle.MapOutput;
import io.vivace.shuffle.ShuffleMemory;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.hadoop.mapred.RawKeyValueIterator;

/**
 * Collects one map task's output: records are serialised back to back into one large byte array
 * and described by a compact int index (partition, key start, value start, value end). When the
 * buffer reaches {@code mapreduce.task.io.sort.mb} the index is sorted by partition and raw key,
 * the combiner runs, and the run is spilled to a local file; with a combiner, smaller chunks are
 * sorted and combined into runs kept in memory first. {@link #finish()} merges the runs and yields
 * the task's {@link MapOutput}: in memory when nothing reached the disk and the shuffle budget
 * allows, otherwise one partitioned local file. With map output compression, spills, intermediate
 * merges and the output (in memory or on disk) are compressed per partition segment with the job's
 * codec; the combined chunks, which never leave this buffer, stay raw.
 */
public final class MapOutputBuffer<K, V> {

  static final int PARTITION = 0;
  static final int KEY_START = 1;
  static final int VALUE_START = 2;
  static final int VALUE_END = 3;
  static final int META_INTS = 4;
  private static final int META_BYTES = META_INTS * Integer.BYTES;
  /** Index memory a record costs: its meta ints plus the sorter's order and prefix arrays. */
  private static final int INDEX_BYTES = META_BYTES + IndexSorter.BYTES_PER_RECORD;
  /**
   * Buffer use at which, with a combiner, the buffer is sorted and combined (see combineChunk): the
   * records and their index then fit a core's L2 cache (2 MB here). Measured on a word count, 1 MB
   * took less CPU than 4 MB or 512 KB.
   */
  private static final long COMBINE_CHUNK_BYTES = 1L << 20;
  /** The map's output file when it goes to local disk, as Hadoop names it. */
  private static final String OUTPUT_FILE = "file.out";

  /** Everything the buffer needs from the task. */
  public record Settings(int partitions, long limitBytes, RawComparator<?> comparator,
                         Combiner combiner, int minSpillsForCombine, int sortFactor,
                         ScratchDir spillDir, ShuffleMemory shuffleMemory, MapOutputCounters counters,
                         SegmentCodec codec) {

    /** Uncompressed map output. */
    public Settings(int partitions, long limitBytes, RawComparator<?> comparator,
                    Combiner combiner, int minSpillsForCombine, int sortFactor,
                    ScratchDir spillDir, ShuffleMemory shuffleMemory, MapOutputCounters counters) {
      this(partitions, limitBytes, comparator, combiner, minSpillsForCombine, sortFactor, spillDir,
          shuffleMemory, counters, SegmentCodec.NONE);
    }
  }

  private final Settings settings;
  private final SortBuffers buffers;
  private final IndexSorter sorter;
  /** With a combiner: sorts by grouping equal keys first. */
  private final GroupingSorter grouper;
  private final SortedIndex sorted;
  private final RecordSink sink = new RecordSink();
  private final FieldSerializer<K> keySerializer;
  private final FieldSerializer<V> valueSerializer;
  /** Sorted runs so far: combined chunks kept in memory, and spills on local disk. */
  private final List<Segment[]> spills = new ArrayList<>();
  private long memoryRunBytes;
  /** The spill files written, to delete if the attempt fails. */
  private final List<File> spillFiles = new ArrayList<>();
  private int spillNumber;
  /** Compresses spills and the output, when the job compresses map output; taken on first use. */
  private SegmentCompressor compressor;
  private byte[] data;
  private int[] meta;
  private int dataEnd;
  private int records;

  public MapOutputBuffer(Settings settings, Serializer<K> keySerializer, Serializer<V> valueSerializer)
      throws IOException {
    if (settings.limitBytes() <= INDEX_BYTES || settings.limitBytes() > Integer.MAX_VALUE - 8) {
      throw new IOException("Invalid \"mapreduce.task.io.sort.mb\": " + (settings.limitBytes() >> 20));
    }
    this.settings = settings;
    this.buffers = SortBuffers.ofCurrentThread();
    this.data = buffers.data;
    this.meta = buffers.meta;
    this.sorter = new IndexSorter(settings.comparator(), buffers);
    this.grouper = settings.combiner() == null ? null : new GroupingSorter(settings.comparator(), sorter);
    this.sorted = grouper == null ? sorter : grouper;
    keySerializer.open(sink);
    valueSerializer.open(sink);
    this.keySerializer = FieldSerializer.of(keySerializer, sink);
    this.valueSerializer = FieldSerializer.of(valueSerializer, sink);
  }

  public void collect(K key, V value, int partition) throws IOException, InterruptedException {
    int recordStart = dataEnd;
    sink.begin();
    keySerializer.serialize(key);
    int valueStart = sink.position();
    valueSerializer.serialize(value);
    int end = sink.position();
    settings.counters().outputRecords().increment(1);
    settings.counters().outputBytes().increment(end - recordStart);
    if (sink.overflowed()) {
      placeOverflowedRecord(partition, recordStart, valueStart - recordStart, end - recordStart);
    } else {
      dataEnd = end;
      index(partition, recordStart, valueStart, end);
    }
    if (used() >= settings.limitBytes()) {
      spill();
    } else if (settings.combiner() != null && used() >= COMBINE_CHUNK_BYTES) {
      combineChunk();
    }
  }

  /**
   * With a combiner, the buffer is sorted and combined in chunks small enough to stay in the CPU's
   * caches, and the (usually much smaller) combined runs are kept in memory: sorting and combining
   * a whole 100 MB buffer at once spends most of its time waiting for memory. The sort groups equal
   * keys first ({@link GroupingSorter}).
   */
  private void combineChunk() throws IOException, InterruptedException {
    sortIndex();
    PartitionedMemoryWriter out = new PartitionedMemoryWriter(settings.partitions(), dataEnd / 4, null);
    writeSorted(out);
    out.finish();
    spills.add(out.memorySegments(null));
    memoryRunBytes += out.bytes();
    dataEnd = 0;
    records = 0;
    if (memoryRunBytes >= settings.limitBytes() / 2) {
      mergeMemoryRunsToDisk();
    }
  }

  /** Combined in-memory runs grew large: merge (and combine) them into one spill file. */
  private void mergeMemoryRunsToDisk() throws IOException, InterruptedException {
    List<Segment[]> memoryRuns = new ArrayList<>();
    for (Segment[] run : spills) {
      if (isMemoryRun(run)) {
        memoryRuns.add(run);
      }
    }
    PartitionedFileWriter out = spillFile(memoryRunBytes);
    Segment[] merged = mergeRuns(memoryRuns, out, true);
    spillFiles.add(out.file());
    spills.removeAll(memoryRuns);
    spills.add(merged);
    memoryRunBytes = 0;
  }

  private static boolean isMemoryRun(Segment[] run) {
    for (Segment s : run) {
      if (s != null) {
        return s.inMemory();
      }
    }
    return true;
  }

  private long used() {
    return (long) dataEnd + (long) records * INDEX_BYTES;
  }

  private void index(int partition, int keyStart, int valueStart, int end) {
    int m = records * META_INTS;
    if (m + META_INTS > meta.length) {
      meta = Arrays.copyOf(meta, meta.length * 2);
      buffers.meta = meta;
    }
    meta[m + PARTITION] = partition;
    meta[m + KEY_START] = keyStart;
    meta[m + VALUE_START] = valueStart;
    meta[m + VALUE_END] = end;
    if (grouper != null) {
      grouper.add(data, meta, records);
    }
    records++;
  }

  /** A record that did not fit: spill what is buffered, then buffer it alone or spill it alone. */
  private void placeOverflowedRecord(int partition, int recordStart, int keyLength, int length)
      throws IOException, InterruptedException {
    byte[] record = sink.takeRecord(recordStart);
    dataEnd = recordStart;
    if (records > 0) {
      spill();
    }
    if (length + INDEX_BYTES <= settings.limitBytes()) {
      ensureData(length);
      System.arraycopy(record, 0, data, 0, length);
      dataEnd = length;
      index(partition, 0, keyLength, length);
    } else {
      byte[] saved = data;
      int[] savedMeta = meta;
      data = record;
      meta = new int[] {partition, 0, keyLength, length};
      records = 1;
      dataEnd = length;
      spill();
      data = saved;
      meta = savedMeta;
    }
  }

  private void ensureData(int needed) {
    if (needed > data.length) {
      // by half, not double: the buffer stays with the worker thread, so its slack is held for good
      long grown = Math.max((long) data.length + (data.length >> 1), needed);
      data = Arrays.copyOf(data, (int) Math.min(grown, settings.limitBytes()));
      buffers.data = data;
    }
  }

  private void sortIndex() {
    if (grouper != null) {
      grouper.sort(data, meta, records, settings.partitions());
    } else {
      sorter.sort(data, meta, records, settings.partitions());
    }
  }

  /** The sorted records of partition {@code p}. */
  private SortedRun sortedPartition(int p) {
    return new SortedRun(data, meta, sorted, sorted.partitionStart(p), sorted.partitionStart(p + 1));
  }

  private boolean partitionEmpty(int p) {
    return sorted.partitionStart(p) == sorted.partitionStart(p + 1);
  }

  /** Writes the sorted buffer, partition by partition, combined when a combiner is set. */
  private void writeSorted(PartitionedWriter out) throws IOException, InterruptedException {
    for (int p = 0; p < settings.partitions(); p++) {
      if (partitionEmpty(p)) {
        continue;
      }
      if (settings.combiner() == null) {
        buffers.gather.write(data, meta, sorted.order(), sorted.partitionStart(p),
            sorted.partitionStart(p + 1), out.startPartition(p));
      } else {
        writeRun(sortedPartition(p), out.startPartition(p), true);
      }
    }
  }

  /** The compressor of spills, merges and output; null when map output is not compressed. */
  private SegmentCompressor compressor() {
    if (compressor == null && settings.codec().compresses()) {
      compressor = settings.codec().newCompressor();
    }
    return compressor;
  }

  private void releaseCompressor() {
    if (compressor != null) {
      compressor.close();
      compressor = null;
    }
  }

  private void writeRun(RawKeyValueIterator run, SegmentWriter out, boolean combine)
      throws IOException, InterruptedException {
    if (combine && settings.combiner() != null) {
      settings.combiner().combine(run, out);
    } else {
      while (run.next()) {
        out.append(run.getKey(), run.getValue());
      }
    }
  }

  private void spill() throws IOException, InterruptedException {
    sortIndex();
    PartitionedFileWriter out = spillFile(bufferedBytes());
    spills.add(writeSortedToFile(out));
    spillFiles.add(out.file());
    dataEnd = 0;
    records = 0;
  }

  /** A new spill file, on the local disk chosen for {@code expectedBytes}. */
  private PartitionedFileWriter spillFile(long expectedBytes) throws IOException {
    return new PartitionedFileWriter(settings.spillDir(), "spill" + (spillNumber++) + ".out", expectedBytes,
        settings.partitions(), compressor());
  }

  /** The map's output file, on the local disk chosen for {@code expectedBytes}. */
  private PartitionedFileWriter outputFile(long expectedBytes) throws IOException {
    return new PartitionedFileWriter(settings.spillDir(), OUTPUT_FILE, expectedBytes, settings.partitions(),
        compressor());
  }

  /**
   * About the bytes the buffered records take in a file, before any combining or compression:
   * their bytes and a length header of at most 3 bytes for most keys and values.
   */
  private long bufferedBytes() {
    return dataEnd + 6L * records;
  }

  /** Writes the sorted buffer to {@code out}, counted as spilled; returns its segments. */
  private Segment[] writeSortedToFile(PartitionedFileWriter out) throws IOException, InterruptedException {
    try {
      writeSorted(out);
      settings.counters().spilledRecords().increment(out.records());
      return out.finish();
    } catch (IOException | InterruptedException | RuntimeException e) {
      out.discard();
      throw e;
    }
  }

  /** Ends collection and returns the task's sorted, partitioned output. */
  public MapOutput finish() throws IOException, InterruptedException {
    try {
      Segment[] result = spills.isEmpty() ? finishWithoutSpills() : finishAfterSpills();
      long materialized = 0;
      for (Segment s : result) {
        materialized += s == null ? 0 : s.length();
      }
      settings.counters().materializedBytes().increment(materialized);
      return new MapOutput(result);
    } finally {
      releaseCompressor();
      releaseBufferReferences();
    }
  }

  private Segment[] finishWithoutSpills() throws IOException, InterruptedException {
    sortIndex();
    SegmentCompressor compressor = compressor();
    if (compressor == null && settings.combiner() == null) {
      return finishRaw(rawSegmentBytes());
    }
    // compressed or combined: the size is known only once written; a guess that grows if need be
    int guess = compressor == null ? rawSegmentBytes() : dataEnd / 2;
    PartitionedMemoryWriter out = new PartitionedMemoryWriter(settings.partitions(), guess, compressor);
    writeSorted(out);
    out.finish();
    return keepInMemoryOrWrite(out);
  }

  /**
   * A raw output, whose size is known before it is written: on the heap when the shuffle budget
   * holds it, allocated once at its exact size; otherwise written from the sort buffer straight to
   * one local file. Deciding first keeps an output that goes to disk from passing through a heap
   * copy of its own (one humongous array per map, garbage at once, that made G1 grow the heap).
   */
  private Segment[] finishRaw(int bytes) throws IOException, InterruptedException {
    ShuffleMemory memory = settings.shuffleMemory();
    if (!memory.tryReserve(bytes)) {
      return writeSortedToFile(outputFile(bytes));
    }
    PartitionedMemoryWriter out;
    try {
      out = new PartitionedMemoryWriter(settings.partitions(), bytes, null);
      writeSorted(out);
      out.finish();
    } catch (IOException | InterruptedException | RuntimeException | Error e) {
      memory.release(bytes);
      throw e;
    }
    // the segments give back what they hold; settle any difference from the reservation now
    memory.release(bytes - out.bytes());
    return out.memorySegments(memory::release);
  }

  /** The size of the buffered records in segment format: the bytes plus each one's length headers. */
  private int rawSegmentBytes() {
    long bytes = dataEnd;
    for (int m = 0; m < records * META_INTS; m += META_INTS) {
      bytes += WritableUtils.getVIntSize(meta[m + VALUE_START] - meta[m + KEY_START])
          + WritableUtils.getVIntSize(meta[m + VALUE_END] - meta[m + VALUE_START]);
    }
    return (int) Math.min(bytes, Integer.MAX_VALUE - 8);
  }

  /** The task's output in memory when the shuffle budget allows, else in one local file. */
  private Segment[] keepInMemoryOrWrite(PartitionedMemoryWriter out) throws IOException {
    ShuffleMemory memory = settings.shuffleMemory();
    if (memory.tryReserve(out.bytes())) {
      out.trim();
      return out.memorySegments(memory::release);
    }
    // the output did not fit the shuffle budget: the same bytes go to one local file
    Segment[] segments = out.writeTo(settings.spillDir(), OUTPUT_FILE);
    settings.counters().spilledRecords().increment(out.records());
    return segments;
  }

  private Segment[] finishAfterSpills() throws IOException, InterruptedException {
    if (records > 0) {
      if (settings.combiner() != null) {
        combineChunk();
      } else {
        spill();
      }
    }
    if (spills.size() == 1 && !isMemoryRun(spills.get(0))) {
      return spills.remove(0);
    }
    boolean allInMemory = spills.stream().allMatch(MapOutputBuffer::isMemoryRun);
    // Combined chunks are a detail of this buffer, not spills: they always combine once more, so the
    // output has one record per key as a single sort of the whole output would give.
    boolean combine = settings.combiner() != null
        && (allInMemory || spills.size() >= settings.minSpillsForCombine());
    if (allInMemory) {
      long guess = compressor() == null ? memoryRunBytes : memoryRunBytes / 2;
      PartitionedMemoryWriter out = new PartitionedMemoryWriter(settings.partitions(),
          (int) Math.min(guess, 1 << 30), compressor());
      mergeRuns(new ArrayList<>(spills), out, combine);
      out.finish();
      releaseSpills();
      return keepInMemoryOrWrite(out);
    }
    long runBytes = 0;
    for (Segment[] run : spills) {
      for (Segment s : run) {
        runBytes += s == null ? 0 : s.length();
      }
    }
    Segment[] result = mergeRuns(new ArrayList<>(spills), outputFile(runBytes), combine);
    releaseSpills();
    return result;
  }

  /** Merges runs partition by partition into a spill file; returns its segments. */
  private Segment[] mergeRuns(List<Segment[]> runs, PartitionedFileWriter out, boolean combine)
      throws IOException, InterruptedException {
    try {
      long intermediate = mergePartitions(runs, out, combine);
      settings.counters().spilledRecords().increment(out.records() + intermediate);
      Segment[] result = out.finish();
      release(runs);
      return result;
    } catch (IOException | InterruptedException | RuntimeException e) {
      out.discard();
      throw e;
    }
  }

  /** Merges runs partition by partition into one heap buffer. */
  private void mergeRuns(List<Segment[]> runs, PartitionedMemoryWriter out, boolean combine)
      throws IOException, InterruptedException {
    long intermediate = mergePartitions(runs, out, combine);
    settings.counters().spilledRecords().increment(intermediate);
  }

  /**
   * For each partition in order, merges the runs' segments into {@code out}; returns the records
   * intermediate merge passes wrote to disk.
   */
  private long mergePartitions(List<Segment[]> runs, PartitionedWriter out, boolean combine)
      throws IOException, InterruptedException {
    SegmentMerger merger = new SegmentMerger(settings.comparator(), settings.sortFactor(),
        settings.spillDir(), settings.codec(), null);
    for (int p = 0; p < settings.partitions(); p++) {
      SegmentWriter writer = out.startPartition(p);
      List<Segment> segments = partitionOf(runs, p);
      if (!segments.isEmpty()) {
        try (io.vivace.merge.MergingIterator merged = merger.merge(segments)) {
          writeRun(merged, writer, combine);
        }
      }
    }
    return merger.spilledRecords();
  }

  private static List<Segment> partitionOf(List<Segment[]> runs, int p) {
    List<Segment> segments = new ArrayList<>();
    for (Segment[] run : runs) {
      if (run[p] != null) {
        segments.add(run[p]);
      }
    }
    return segments;
  }

  private static void release(List<Segment[]> runs) {
    for (Segment[] run : runs) {
      for (Segment s : run) {
        if (s != null) {
          s.release();
        }
      }
    }
  }

  private void releaseSpills() {
    release(spills);
    spills.clear();
    memoryRunBytes = 0;
  }

  /** Removes every file this buffer wrote (failed or killed attempt). */
  public void abort() {
    releaseCompressor();
    releaseSpills();
    for (File f : spillFiles) {
      f.delete();
    }
    releaseBufferReferences();
  }

  private void releaseBufferReferences() {
    records = 0;
    dataEnd = 0;
  }

  /**
   * The serialisers' output stream: writes into the sort buffer, growing it up to the limit; bytes
   * of a record that cannot fit go to an overflow buffer instead.
   */
  final class RecordSink extends OutputStream implements FieldSerializer.Sink {
    private final DataOutputBuffer overflow = new DataOutputBuffer();
    private final byte[] scratch = new byte[Long.BYTES + 1];
    private boolean overflowed;
    private int position;

    void begin() {
      position = dataEnd;
      if (overflowed) {
        // reset only after use: DataOutputBuffer.reset is synchronized, a lock per record
        overflowed = false;
        overflow.reset();
      }
    }

    boolean overflowed() {
      return overflowed;
    }

    int position() {
      return overflowed ? position + overflow.getLength() : position;
    }

    /** The bytes of the record that began at {@code recordStart}, copied out of both buffers. */
    byte[] takeRecord(int recordStart) {
      int inData = position - recordStart;
      byte[] record = new byte[inData + overflow.getLength()];
      System.arraycopy(data, recordStart, record, 0, inData);
      System.arraycopy(overflow.getData(), 0, record, inData, overflow.getLength());
      overflow.reset();
      overflowed = false;
      return record;
    }

    @Override
    public void writeVInt(int v) throws IOException {
      if (!overflowed && position + scratch.length <= data.length) {
        position = VarInts.write(v, data, position);
      } else {
        write(scratch, 0, VarInts.write(v, scratch, 0));
      }
    }

    @Override
    public void writeBigEndian(long v, int bytes) throws IOException {
      boolean inPlace = !overflowed && position + bytes <= data.length;
      byte[] target = inPlace ? data : scratch;
      int at = inPlace ? position : 0;
      for (int i = bytes - 1; i >= 0; i--) {
        target[at + i] = (byte) v;
        v >>>= 8;
      }
      if (inPlace) {
        position += bytes;
      } else {
        write(scratch, 0, bytes);
      }
    }

    @Override
    public void write(int b) throws IOException {
      if (!overflowed && position < data.length) {
        data[position++] = (byte) b;
      } else {
        write(new byte[] {(byte) b}, 0, 1);
      }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (!overflowed) {
        long needed = (long) position + len;
        if (needed > data.length && data.length < settings.limitBytes()) {
          ensureData((int) Math.min(needed, settings.limitBytes()));
        }
        if (needed <= data.length) {
          System.arraycopy(b, off, data, position, len);
          position += len;
          return;
        }
        overflowed = true;
      }
      overflow.write(b, off, len);
    }
  }
}
