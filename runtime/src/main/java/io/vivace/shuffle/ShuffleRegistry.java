package io.vivace.shuffle;

import io.vivace.segment.Segment;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The shuffle of one job in one JVM, both sides, without sockets: map attempts publish their output
 * here ({@link MapOutputStore}) and each reduce partition of this JVM takes its segments from every
 * map, in map order ({@link ShuffleInput}).
 *
 * <p>While maps run, a partition's on-disk segments may be merged ahead of its reduce
 * ({@link MergeAhead}, behind this class: a reduce sees only fewer segments and the merges' work in
 * its {@link ShuffledPartition}): a merge claims some of them ({@link #claimMerge}), and its result
 * replaces them ({@link #mergeDone}). A reduce that takes its partition ({@link #take}) waits for a
 * merge of it under way, and no merge of it starts after that.
 */
public final class ShuffleRegistry implements MapOutputStore, ShuffleInput {

  /** An on-disk segment a merge ahead may take, with how many merges its records went through. */
  record DiskSegment(Segment segment, int level) {
  }

  private final MapOutput[] outputs;
  private final Partition[] partitions;
  private int published;
  /** Set by {@link #releaseAll}; read by merges under way, without the lock, to stop. */
  private volatile boolean closed;
  private Consumer<MapOutput> onPublish = output -> { };

  /** A partition's merges ahead of its reduce. */
  private static final class Partition {
    /** Map output segments merged into a file of {@link #merged}. */
    final Set<Segment> consumed = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Merge results not yet merged again, with their levels, in the order they were made. */
    final Map<Segment, Integer> merged = new LinkedHashMap<>();
    boolean merging;
    boolean taken;
    Throwable failure;
    long records;
    final long[] io = new long[4];
  }

  /** The shuffle of {@code maps} maps into {@code reduces} partitions. */
  public ShuffleRegistry(int maps, int reduces) {
    this.outputs = new MapOutput[maps];
    this.partitions = new Partition[reduces];
    for (int p = 0; p < reduces; p++) {
      partitions[p] = new Partition();
    }
  }

  /** Gives {@code listener} each published output, after its publish, outside this registry's lock. */
  synchronized void onPublish(Consumer<MapOutput> listener) {
    this.onPublish = listener;
  }

  @Override
  public void publish(int mapIndex, MapOutput output) {
    Consumer<MapOutput> listener;
    synchronized (this) {
      if (outputs[mapIndex] != null) {
        for (int p = 0; p < partitions.length; p++) {
          if (partitions[p].consumed.contains(outputs[mapIndex].partition(p))) {
            throw new IllegalStateException("map " + mapIndex + " published again after its output was merged");
          }
        }
        outputs[mapIndex].release();
      } else {
        published++;
      }
      outputs[mapIndex] = output;
      listener = onPublish;
    }
    listener.accept(output);
  }

  /** Maps whose output is not yet published. */
  synchronized int pendingMaps() {
    return outputs.length - published;
  }

  boolean closed() {
    return closed;
  }

  @Override
  public synchronized MapOutput mapOutput(int mapIndex) {
    return outputs[mapIndex];
  }

  /**
   * Takes {@code partition} for its reduce: waits for a merge of it under way, then returns its
   * segments: those of every map in map order (non-empty, not merged ahead), then the results of
   * the merges ahead, with what those merges wrote and read. Throws when a merge ahead of it failed;
   * its inputs are still there, so a later attempt gets them unmerged.
   */
  @Override
  public synchronized ShuffledPartition take(int partition) throws IOException {
    Partition state = partitions[partition];
    state.taken = true;
    while (state.merging) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted waiting for the merge of partition " + partition
            + "'s map outputs");
      }
    }
    if (state.failure != null) {
      Throwable failure = state.failure;
      state.failure = null;
      throw new IOException("merging partition " + partition + "'s map outputs on disk ahead of its reduce"
          + " failed: " + failure, failure);
    }
    List<Segment> segments = new ArrayList<>();
    for (MapOutput output : outputs) {
      Segment s = output == null ? null : output.partition(partition);
      if (s != null && !state.consumed.contains(s)) {
        segments.add(s);
      }
    }
    segments.addAll(state.merged.keySet());
    return new ShuffledPartition(segments, storedBytes(partition), state.records, state.io.clone());
  }

  /** The stored bytes of {@code partition}'s map outputs, merged ahead or not: what its reduce shuffles. */
  private long storedBytes(int partition) {
    long bytes = 0;
    for (MapOutput output : outputs) {
      Segment s = output == null ? null : output.partition(partition);
      bytes += s == null ? 0 : s.length();
    }
    return bytes;
  }

  /**
   * Claims segments of a partition to merge ahead of its reduce: for each partition (from
   * {@code from}, wrapping around) not taken by its reduce, not being merged, without a failed
   * merge, {@code choose} is given its on-disk segments (those of the maps not merged yet, then
   * merge results) and returns those to merge, or null. The first choice made is claimed: no other
   * merge of that partition starts until {@link #mergeDone} or {@link #mergeFailed}.
   *
   * @return the partition and the segments claimed, or null
   */
  synchronized Claim claimMerge(int from, Function<List<DiskSegment>, List<DiskSegment>> choose) {
    if (closed) {
      return null;
    }
    for (int i = 0; i < partitions.length; i++) {
      int p = (from + i) % partitions.length;
      Partition state = partitions[p];
      if (state.taken || state.merging || state.failure != null) {
        continue;
      }
      List<DiskSegment> disk = new ArrayList<>();
      for (MapOutput output : outputs) {
        Segment s = output == null ? null : output.partition(p);
        if (s != null && s.streamed() && !s.inMemory() && !state.consumed.contains(s)) {
          disk.add(new DiskSegment(s, 0));
        }
      }
      state.merged.forEach((s, level) -> disk.add(new DiskSegment(s, level)));
      List<DiskSegment> batch = choose.apply(disk);
      if (batch != null && !batch.isEmpty()) {
        state.merging = true;
        return new Claim(p, batch);
      }
    }
    return null;
  }

  /** Segments of one partition claimed for a merge ahead of its reduce. */
  record Claim(int partition, List<DiskSegment> batch) {
    List<Segment> segments() {
      return batch.stream().map(DiskSegment::segment).toList();
    }

    /** The level of the merge's result: one more than its highest input's. */
    int resultLevel() {
      return batch.stream().mapToInt(DiskSegment::level).max().orElse(0) + 1;
    }
  }

  /**
   * The merge of {@code claim} wrote {@code result} (null if it holds no record): it replaces the
   * claimed segments, whose files are released. If the shuffle was released meanwhile, the result is.
   */
  synchronized void mergeDone(Claim claim, Segment result, long records, long[] io) {
    Partition state = partitions[claim.partition()];
    state.merging = false;
    state.records += records;
    for (int i = 0; i < io.length; i++) {
      state.io[i] += io[i];
    }
    for (Segment s : claim.segments()) {
      if (state.merged.remove(s) == null) {
        state.consumed.add(s);
      }
      s.release();
    }
    if (result != null) {
      if (closed) {
        result.release();
      } else {
        state.merged.put(result, claim.resultLevel());
      }
    }
    notifyAll();
  }

  /** The merge of {@code claim} failed; its segments stay as they were and its reduce will say why. */
  synchronized void mergeFailed(Claim claim, Throwable failure) {
    Partition state = partitions[claim.partition()];
    state.merging = false;
    state.failure = failure;
    notifyAll();
  }

  @Override
  public synchronized void releasePartition(int partition) {
    for (MapOutput output : outputs) {
      if (output != null && output.partition(partition) != null) {
        output.partition(partition).release();
      }
    }
    partitions[partition].merged.keySet().forEach(Segment::release);
    partitions[partition].merged.clear();
  }

  /**
   * Frees everything, once merges under way have stopped (they look at {@link #closed}): their
   * files are gone when this returns.
   */
  @Override
  public synchronized void releaseAll() {
    closed = true;
    boolean interrupted = false;
    for (Partition state : partitions) {
      while (state.merging) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    for (int i = 0; i < outputs.length; i++) {
      if (outputs[i] != null) {
        outputs[i].release();
        outputs[i] = null;
      }
    }
    for (Partition state : partitions) {
      state.merged.keySet().forEach(Segment::release);
      state.merged.clear();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
