package io.vivace.shuffle;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * Charges the spill, merge and map output files Vivace reads and writes to the calling thread's
 * statistics of the local ({@code file}) file system, as Hadoop's tasks do by writing them through
 * {@link RawLocalFileSystem}: so {@code FILE_BYTES_WRITTEN} and {@code FILE_BYTES_READ} include them.
 */
public final class LocalFileStatistics {

  private static final FileSystem.Statistics FILE =
      FileSystem.getStatistics("file", RawLocalFileSystem.class);

  private LocalFileStatistics() {
  }

  static void opened() {
    FILE.incrementReadOps(1);
  }

  static void read(long bytes) {
    FILE.incrementBytesRead(bytes);
  }

  static void written(long bytes) {
    FILE.incrementWriteOps(1);
    FILE.incrementBytesWritten(bytes);
  }

  /** The current thread's local file reads so far: bytes and read operations. */
  public static long[] readsOfThisThread() {
    FileSystem.Statistics.StatisticsData d = FILE.getThreadStatistics();
    return new long[] {d.getBytesRead(), d.getReadOps()};
  }

  /**
   * Charges {@code reads} (bytes and operations, as {@link #readsOfThisThread()} gives) to the
   * current thread: reads a helper thread did for a task, moved to the task's thread (negative
   * amounts take them off the helper's).
   */
  public static void chargeReads(long[] reads) {
    FILE.incrementBytesRead(reads[0]);
    FILE.incrementReadOps((int) reads[1]);
  }
}
