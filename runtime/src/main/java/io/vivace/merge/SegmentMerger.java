package io.vivace.merge;

import io.vivace.localdisk.LocalFileStatistics;
import io.vivace.localdisk.ScratchDir;
import io.vivace.segment.Segment;
import io.vivace.segment.SegmentCodec;
import io.vivace.segment.SegmentCompressor;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.hadoop.io.RawComparator;

/**
 * Merges sorted segments honouring {@code mapreduce.task.io.sort.factor}: while more on-disk
 * segments remain than the factor allows open at once, the smallest ones are merged into an
 * intermediate file, compressed with the job's map output codec; the final pass streams to the
 * caller. Raw in-memory segments hold no file handle nor decompressor and join the final pass
 * directly. Compressed in-memory segments hold no file handle either, but each open one holds a
 * decompressor and its buffers (up to about 1 MB): up to {@value #COMPRESSED_IN_MEMORY_STREAMS}
 * of them (or the factor, if larger) join the final pass, the smallest others are merged to a file
 * first. Given a thread name, the final pass runs on a thread of its own ({@link
 * MergingIterator#inBackground}).
 */
public final class SegmentMerger {

  /** Compressed in-memory segments a merge opens at once (unless the sort factor is larger). */
  public static final int COMPRESSED_IN_MEMORY_STREAMS = 64;
  /** The smallest last intermediate pass worth splitting in two (two passes of two segments). */
  private static final int MIN_SPLIT_PASS = 3;

  private final RawComparator<?> comparator;
  private final int factor;
  private final ScratchDir tempDir;
  private final SegmentCodec codec;
  private final String finalPassThread;
  /** With merge threads: a comparator of their own for a pass running beside another. */
  private final Supplier<? extends RawComparator<?>> sideComparator;
  private final AtomicLong tempNames = new AtomicLong();
  private final AtomicLong spilledRecords = new AtomicLong();

  /** Intermediate files raw. */
  public SegmentMerger(RawComparator<?> comparator, int factor, File tempDir) {
    this(comparator, factor, tempDir, SegmentCodec.NONE);
  }

  /** Intermediate files stored with {@code codec}. */
  public SegmentMerger(RawComparator<?> comparator, int factor, File tempDir, SegmentCodec codec) {
    this(comparator, factor, ScratchDir.of(tempDir), codec, null);
  }

  /**
   * Intermediate files stored with {@code codec}; with {@code threads}, the final pass on a thread
   * of its own and intermediate passes two at a time, else all on the caller's thread.
   */
  public SegmentMerger(RawComparator<?> comparator, int factor, File tempDir, SegmentCodec codec,
                       Threads threads) {
    this(comparator, factor, ScratchDir.of(tempDir), codec, threads);
  }

  /**
   * Intermediate files in {@code tempDir}, on the local disks it spans, stored with {@code codec};
   * {@code threads} as above.
   */
  public SegmentMerger(RawComparator<?> comparator, int factor, ScratchDir tempDir, SegmentCodec codec,
                       Threads threads) {
    if (factor < 2) {
      throw new IllegalArgumentException("mapreduce.task.io.sort.factor must be at least 2, got " + factor);
    }
    this.comparator = comparator;
    this.factor = factor;
    this.tempDir = tempDir;
    this.codec = codec;
    this.finalPassThread = threads == null ? null : threads.name();
    this.sideComparator = threads == null ? null : threads.comparators();
  }

  /**
   * Merge threads: their name, and where a second intermediate pass gets its own comparator
   * (raw comparators, such as Hadoop's generic WritableComparator, may not be shared by threads).
   */
  public record Threads(String name, Supplier<? extends RawComparator<?>> comparators) {
  }

  /** Records written to intermediate files so far. */
  public long spilledRecords() {
    return spilledRecords.get();
  }

  /** Returns an iterator over all records of {@code segments} in key order. */
  public MergingIterator merge(List<? extends Segment> segments) throws IOException {
    List<Segment> memory = new ArrayList<>();
    List<Segment> compressedMemory = new ArrayList<>();
    List<Segment> disk = new ArrayList<>();
    for (Segment s : segments) {
      (!s.streamed() ? memory : s.inMemory() ? compressedMemory : disk).add(s);
    }
    List<Segment> owned = new ArrayList<>();
    Passes passes = new Passes(owned);
    try {
      passes.reduce(compressedMemory, Math.max(factor, COMPRESSED_IN_MEMORY_STREAMS), disk);
      passes.reduce(disk, factor, disk);
    } catch (IOException | RuntimeException e) {
      owned.forEach(Segment::release);
      throw e;
    } finally {
      passes.close();
    }
    if (owned.isEmpty()) {
      return finalPass(new MergingIterator(segments, comparator, owned), segments.size());
    }
    // Untouched segments keep their original order; intermediate results follow them.
    Set<Segment> remaining = Collections.newSetFromMap(new IdentityHashMap<>());
    remaining.addAll(memory);
    remaining.addAll(compressedMemory);
    remaining.addAll(disk);
    List<Segment> all = new ArrayList<>(remaining.size());
    for (Segment s : segments) {
      if (remaining.remove(s)) {
        all.add(s);
      }
    }
    all.addAll(owned);
    return finalPass(new MergingIterator(all, comparator, owned), all.size());
  }

  private MergingIterator finalPass(MergingIterator merge, int segments) {
    return finalPassThread == null || segments == 0 ? merge
        : MergingIterator.inBackground(merge, finalPassThread);
  }

  /** Intermediate merge passes; their compressor is taken on first use and given back by close. */
  private final class Passes {
    private final List<Segment> owned;
    private SegmentCompressor compressor;

    Passes(List<Segment> owned) {
      this.owned = owned;
    }

    /**
     * While {@code pool} holds more than {@code limit} segments, merges its smallest ones into a
     * file that joins {@code disk} (Hadoop's order: as few records rewritten as possible). With a
     * merge thread allowed, and when another pass would follow anyway, the next smallest ones are
     * merged at the same time on a second thread. When one pass would do, it runs as two passes of
     * about half as many segments on two threads: the final pass cannot start before it ends, and a
     * second core would idle meanwhile. Between them they merge one segment more, to leave as few
     * segments as the single pass would.
     */
    void reduce(List<Segment> pool, int limit, List<Segment> disk) throws IOException {
      while (pool.size() > limit) {
        pool.sort(Comparator.comparingLong(Segment::length));
        int take = Math.min(limit, pool.size() - limit + 1);
        boolean anotherPass = pool.size() - take + 1 > limit;
        boolean split = finalPassThread != null && !anotherPass && take >= MIN_SPLIT_PASS;
        List<Segment> batch = takeFirst(pool, split ? (take + 2) / 2 : take);
        int left = pool.size() + 1;
        List<Segment> second = split ? takeFirst(pool, (take + 1) / 2)
            : finalPassThread != null && left > limit
            ? takeFirst(pool, Math.min(limit, left - limit + 1)) : null;
        if (compressor == null && codec.compresses()) {
          compressor = codec.newCompressor();
        }
        List<Segment> merged = new ArrayList<>(2);
        if (second == null) {
          merged.add(mergeToFile(batch, comparator, compressor));
        } else {
          SidePass side = new SidePass(second, finalPassThread + "-pass");
          try {
            merged.add(mergeToFile(batch, comparator, compressor));
          } finally {
            merged.add(side.join());
          }
        }
        for (List<Segment> done : second == null ? List.of(batch) : List.of(batch, second)) {
          for (Segment s : done) {
            if (owned.remove(s)) {
              s.release();
            }
          }
        }
        for (Segment m : merged) {
          if (m != null) {
            owned.add(m);
            disk.add(m);
          }
        }
      }
    }

    private List<Segment> takeFirst(List<Segment> pool, int n) {
      List<Segment> batch = new ArrayList<>(pool.subList(0, n));
      pool.subList(0, n).clear();
      return batch;
    }

    void close() {
      if (compressor != null) {
        compressor.close();
      }
    }
  }

  /**
   * An intermediate pass on a thread of its own, with its own compressor; its local file reads and
   * writes are charged to the thread that joins it.
   */
  private final class SidePass {
    private final List<Segment> batch;
    private final Thread thread;
    private Segment result;
    private Throwable failure;
    private long[] io;

    SidePass(List<Segment> batch, String name) {
      this.batch = batch;
      this.thread = HelperThreads.start(this::run, name);
    }

    private void run() {
      long[] before = LocalFileStatistics.ofThisThread();
      SegmentCompressor own = codec.compresses() ? codec.newCompressor() : null;
      try {
        result = mergeToFile(batch, sideComparator.get(), own);
      } catch (Throwable t) {
        failure = t;
      } finally {
        if (own != null) {
          own.close();
        }
        io = LocalFileStatistics.moveFromThisThread(before);
      }
    }

    /** Waits for the pass; returns its segment, or throws its failure. */
    Segment join() throws IOException {
      HelperThreads.join(thread);
      LocalFileStatistics.charge(io);
      if (failure != null) {
        throw failure instanceof IOException e ? e : new IOException("intermediate merge failed: " + failure, failure);
      }
      return result;
    }
  }

  private Segment mergeToFile(List<Segment> batch, RawComparator<?> comparator, SegmentCompressor compressor)
      throws IOException {
    String name = "merge_" + tempNames.incrementAndGet() + ".out";
    IntermediateFile.Written written = IntermediateFile.write(batch, comparator, compressor, tempDir, name, () -> false);
    spilledRecords.addAndGet(written.records());
    return written.segment();
  }
}
