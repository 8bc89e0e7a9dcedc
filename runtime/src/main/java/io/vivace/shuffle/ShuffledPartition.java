package io.vivace.shuffle;

import io.vivace.segment.Segment;
import java.util.List;

/**
 * A reduce partition's input as the shuffle hands it over.
 *
 * @param segments the partition's sorted segments, those of the maps in map order first
 * @param storedBytes the bytes of the partition's map outputs as the maps stored them, compressed
 *     when map output is: what the reduce shuffled (REDUCE_SHUFFLE_BYTES)
 * @param spilledRecords records the shuffle wrote to local files for the reduce before handing the
 *     partition over (merging its map outputs while maps ran), counted as the reduce's own spills
 * @param localFileIo the local file I/O of that work ({@code LocalFileStatistics}' four meters), to
 *     charge to the reduce as Hadoop's reduce counts its own merges during the shuffle
 */
public record ShuffledPartition(List<Segment> segments, long storedBytes, long spilledRecords, long[] localFileIo) {

  /** Segments the shuffle did no local file work for. */
  public static ShuffledPartition of(List<Segment> segments, long storedBytes) {
    return new ShuffledPartition(segments, storedBytes, 0, new long[4]);
  }
}
