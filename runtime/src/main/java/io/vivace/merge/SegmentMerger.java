package io.vivace.merge;

import io.vivace.shuffle.FileSegment;
import io.vivace.shuffle.PartitionedFileWriter;
import io.vivace.shuffle.Segment;
import io.vivace.shuffle.SegmentCodec;
import io.vivace.shuffle.SegmentCompressor;
import io.vivace.shuffle.SegmentWriter;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.RawKeyValueIterator;

/**
 * Merges sorted segments honouring {@code mapreduce.task.io.sort.factor}: while more streamed
 * segments (on disk, or compressed) remain than the factor allows open at once, the smallest ones
 * are merged into an intermediate file, compressed with the job's map output codec; the final pass
 * streams to the caller. Raw in-memory segments hold no file handle nor decompressor and join the
 * final pass directly.
 */
public final class SegmentMerger {

  private final RawComparator<?> comparator;
  private final int factor;
  private final File tempDir;
  private final SegmentCodec codec;
  private final AtomicLong tempNames = new AtomicLong();
  private long spilledRecords;

  /** Intermediate files raw. */
  public SegmentMerger(RawComparator<?> comparator, int factor, File tempDir) {
    this(comparator, factor, tempDir, SegmentCodec.NONE);
  }

  /** Intermediate files stored with {@code codec}. */
  public SegmentMerger(RawComparator<?> comparator, int factor, File tempDir, SegmentCodec codec) {
    if (factor < 2) {
      throw new IllegalArgumentException("mapreduce.task.io.sort.factor must be at least 2, got " + factor);
    }
    this.comparator = comparator;
    this.factor = factor;
    this.tempDir = tempDir;
    this.codec = codec;
  }

  /** Records written to intermediate files so far. */
  public long spilledRecords() {
    return spilledRecords;
  }

  /** Returns an iterator over all records of {@code segments} in key order. */
  public MergingIterator merge(List<? extends Segment> segments) throws IOException {
    List<Segment> memory = new ArrayList<>();
    List<Segment> disk = new ArrayList<>();
    for (Segment s : segments) {
      (s.streamed() ? disk : memory).add(s);
    }
    List<Segment> owned = new ArrayList<>();
    SegmentCompressor compressor = null;
    try {
      while (disk.size() > factor) {
        disk.sort(Comparator.comparingLong(Segment::length));
        int take = Math.min(factor, disk.size() - factor + 1);
        List<Segment> batch = new ArrayList<>(disk.subList(0, take));
        disk.subList(0, take).clear();
        if (compressor == null && codec.compresses()) {
          compressor = codec.newCompressor();
        }
        Segment merged = mergeToFile(batch, compressor);
        for (Segment s : batch) {
          if (owned.remove(s)) {
            s.release();
          }
        }
        if (merged != null) {
          owned.add(merged);
          disk.add(merged);
        }
      }
    } catch (IOException | RuntimeException e) {
      owned.forEach(Segment::release);
      throw e;
    } finally {
      if (compressor != null) {
        compressor.close();
      }
    }
    if (owned.isEmpty()) {
      return new MergingIterator(segments, comparator, owned);
    }
    // Untouched segments keep their original order; intermediate results follow them.
    Set<Segment> remaining = Collections.newSetFromMap(new IdentityHashMap<>());
    remaining.addAll(memory);
    remaining.addAll(disk);
    List<Segment> all = new ArrayList<>(remaining.size());
    for (Segment s : segments) {
      if (remaining.remove(s)) {
        all.add(s);
      }
    }
    all.addAll(owned);
    return new MergingIterator(all, comparator, owned);
  }

  private Segment mergeToFile(List<Segment> batch, SegmentCompressor compressor) throws IOException {
    File file = new File(tempDir, "merge_" + tempNames.incrementAndGet() + ".out");
    PartitionedFileWriter out = new PartitionedFileWriter(file, 1, compressor);
    try (MergingIterator in = new MergingIterator(batch, comparator, new ArrayList<>())) {
      SegmentWriter writer = out.startPartition(0);
      while (in.next()) {
        writer.append(in.getKey(), in.getValue());
      }
      spilledRecords += out.records();
      FileSegment[] result = out.finish();
      return result[0];
    } catch (IOException | RuntimeException e) {
      out.discard();
      throw e;
    }
  }
}
