package io.vivace.shuffle;

import io.vivace.localdisk.LocalFileStatistics;
import io.vivace.localdisk.ScratchDir;
import io.vivace.merge.HelperThreads;
import io.vivace.merge.IntermediateFile;
import io.vivace.segment.Segment;
import io.vivace.segment.SegmentCodec;
import io.vivace.segment.SegmentCompressor;
import io.vivace.shuffle.ShuffleRegistry.Claim;
import io.vivace.shuffle.ShuffleRegistry.DiskSegment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.hadoop.io.RawComparator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Merges a job's on-disk map outputs, partition by partition, while its maps still run, so that a
 * reduce finds at most {@code mapreduce.task.io.sort.factor} files left when the last map ends and
 * its final merge starts at once, instead of first running intermediate passes over them.
 *
 * <p>Which files ({@link #choose}): with P the files the partition would have if every map still
 * running or queued wrote one more, nothing while P is at most the factor; otherwise the smallest
 * {@code min(factor, P - factor + 1)} files of the lowest merge level that has that many. Map
 * outputs (level 0) are so merged once each in groups of the factor; merge results are merged
 * again only while at least {@code factor - 1} files must still go, so that the data is not
 * rewritten more often than the reduce's own passes would have.
 *
 * <p>One thread per job, started by the first map output that reached the disk: during the map
 * phase the maps hold the cores, and one merge at a time is what the disk and the maps leave room
 * for. Its local file I/O and records are charged to the partition's reduce (they come with its
 * {@link ShuffledPartition}); a failure is raised by that reduce.
 */
public final class MergeAhead {

  private static final Logger LOG = LoggerFactory.getLogger(MergeAhead.class);

  /** How long the idle thread waits for a map output before looking whether the job ended. */
  private static final long IDLE_WAIT_MS = 1000;

  private final ShuffleRegistry shuffle;
  private final int factor;
  private final Supplier<? extends RawComparator<?>> comparators;
  private final SegmentCodec codec;
  private final ScratchDir dir;
  private final String threadName;
  private final ClassLoader loader;
  private boolean running;
  /** A map output was published since the thread last looked for a merge. */
  private boolean published;
  /** The thread waits for the next publish. */
  private boolean waiting;
  private long files;
  private int nextPartition;

  private MergeAhead(ShuffleRegistry shuffle, int factor, Supplier<? extends RawComparator<?>> comparators,
                     SegmentCodec codec, ScratchDir dir, String threadName, ClassLoader loader) {
    this.shuffle = shuffle;
    this.factor = factor;
    this.comparators = comparators;
    this.codec = codec;
    this.dir = dir;
    this.threadName = threadName;
    this.loader = loader;
  }

  /**
   * Merges {@code shuffle}'s on-disk map outputs ahead of their reduces from now on, into files in
   * {@code dir} stored with {@code codec}, in key order as {@code comparators} give it (one per thread).
   */
  public static MergeAhead attach(ShuffleRegistry shuffle, int factor,
                                  Supplier<? extends RawComparator<?>> comparators, SegmentCodec codec, ScratchDir dir,
                                  String threadName, ClassLoader loader) {
    if (factor < 2) {
      return null; // the reduce's own merge says why the factor is wrong
    }
    MergeAhead merge = new MergeAhead(shuffle, factor, comparators, codec, dir, threadName, loader);
    shuffle.onPublish(merge::published);
    return merge;
  }

  /** Waits until no merge is under way or due for the outputs published so far. */
  synchronized void awaitIdle() throws InterruptedException {
    while (running && (published || !waiting)) {
      wait();
    }
  }

  /** Wakes the thread; starts it when the first output on disk comes (fewer files then need no merge). */
  private synchronized void published(MapOutput output) {
    if (running) {
      published = true; // fewer maps left may call for a merge now
      notifyAll();
      return;
    }
    for (int p = 0; p < output.partitions(); p++) {
      Segment s = output.partition(p);
      if (s != null && s.streamed() && !s.inMemory()) {
        running = true;
        HelperThreads.start(this::run, threadName);
        return;
      }
    }
  }

  /**
   * The segments of one partition to merge now, or null: see the class comment.
   *
   * @param disk the partition's on-disk segments
   * @param pendingMaps maps whose output is not published yet
   */
  static List<DiskSegment> choose(List<DiskSegment> disk, int pendingMaps, int factor) {
    if (pendingMaps == 0) {
      return null; // the reduce starts now: its own merge runs its passes on two threads
    }
    int projected = disk.size() + pendingMaps;
    int n = Math.min(factor, projected - factor + 1);
    if (n < 2) {
      return null;
    }
    TreeMap<Integer, List<DiskSegment>> levels = new TreeMap<>();
    for (DiskSegment s : disk) {
      levels.computeIfAbsent(s.level(), l -> new ArrayList<>()).add(s);
    }
    for (var level : levels.entrySet()) {
      if (level.getKey() > 0 && projected - factor + 1 < factor) {
        return null;
      }
      List<DiskSegment> candidates = level.getValue();
      if (candidates.size() >= n) {
        candidates.sort(Comparator.comparingLong(s -> s.segment().length()));
        return new ArrayList<>(candidates.subList(0, n));
      }
    }
    return null;
  }

  private void run() {
    Thread.currentThread().setContextClassLoader(loader);
    RawComparator<?> comparator = null;
    SegmentCompressor compressor = null;
    try {
      while (true) {
        Claim claim = shuffle.claimMerge(nextPartition, disk -> choose(disk, shuffle.pendingMaps(), factor));
        if (claim == null) {
          if (!awaitPublish()) {
            return;
          }
          continue;
        }
        nextPartition = claim.partition() + 1;
        long[] before = LocalFileStatistics.ofThisThread();
        try {
          if (comparator == null) {
            comparator = comparators.get();
          }
          if (compressor == null && codec.compresses()) {
            compressor = codec.newCompressor();
          }
          String name;
          synchronized (this) {
            name = "r" + claim.partition() + "_" + (++files) + ".out";
          }
          IntermediateFile.Written written =
              IntermediateFile.write(claim.segments(), comparator, compressor, dir, name, shuffle::closed);
          shuffle.mergeDone(claim, written.segment(), written.records(), LocalFileStatistics.moveFromThisThread(before));
          LOG.debug("Merged {} on-disk segments of partition {} ahead of its reduce into {} (level {}, {} records)",
              claim.batch().size(), claim.partition(), name, claim.resultLevel(), written.records());
        } catch (Throwable t) {
          LocalFileStatistics.moveFromThisThread(before);
          if (compressor != null) { // its state after a failure is unknown
            compressor.close();
            compressor = null;
          }
          shuffle.mergeFailed(claim, t);
        }
      }
    } finally {
      if (compressor != null) {
        compressor.close();
      }
    }
  }

  /** Waits for the next map output on disk; false when the thread should end (no merge can follow). */
  private synchronized boolean awaitPublish() {
    try {
      while (!published) {
        if (shuffle.closed() || shuffle.pendingMaps() == 0) {
          running = false;
          return false;
        }
        waiting = true;
        notifyAll();
        wait(IDLE_WAIT_MS);
      }
      published = false;
      return true;
    } catch (InterruptedException e) {
      running = false;
      return false;
    } finally {
      waiting = false;
      notifyAll();
    }
  }
}
