package io.vivace.localdisk;

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

  public static void opened() {
    FILE.incrementReadOps(1);
  }

  public static void read(long bytes) {
    FILE.incrementBytesRead(bytes);
  }

  public static void written(long bytes) {
    FILE.incrementWriteOps(1);
    FILE.incrementBytesWritten(bytes);
  }

  /** The current thread's local file I/O so far: bytes read, read operations, bytes written, write operations. */
  public static long[] ofThisThread() {
    FileSystem.Statistics.StatisticsData d = FILE.getThreadStatistics();
    return new long[] {d.getBytesRead(), d.getReadOps(), d.getBytesWritten(), d.getWriteOps()};
  }

  /**
   * Takes the local file I/O the current (helper) thread did since {@code before} off its own
   * statistics and returns it, for {@link #charge} on the thread of the task it worked for.
   */
  public static long[] moveFromThisThread(long[] before) {
    long[] now = ofThisThread();
    long[] moved = new long[now.length];
    for (int i = 0; i < now.length; i++) {
      moved[i] = now[i] - before[i];
    }
    add(moved, -1);
    return moved;
  }

  /** Charges local file I/O that {@link #moveFromThisThread} took off a helper thread to the current thread. */
  public static void charge(long[] io) {
    add(io, 1);
  }

  private static void add(long[] io, int sign) {
    FILE.incrementBytesRead(sign * io[0]);
    FILE.incrementReadOps((int) (sign * io[1]));
    FILE.incrementBytesWritten(sign * io[2]);
    FILE.incrementWriteOps((int) (sign * io[3]));
  }
}
