package io.vivace.counters;

import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.FileSystemCounter;

/**
 * Turns the current thread's file system statistics during a task into Hadoop's
 * {@code FileSystemCounter} group ({@code FILE_BYTES_READ}, {@code HDFS_BYTES_WRITTEN}, ...).
 */
public final class FileSystemCounterTracker {

  /** The counters it keeps, in the order of the values it adds ({@code BYTES_READ_EC} is not kept). */
  public static final FileSystemCounter[] KEYS = {FileSystemCounter.BYTES_READ, FileSystemCounter.BYTES_WRITTEN,
      FileSystemCounter.READ_OPS, FileSystemCounter.LARGE_READ_OPS, FileSystemCounter.WRITE_OPS};

  private final Map<FileSystem.Statistics, long[]> start = new HashMap<>();

  public FileSystemCounterTracker() {
    for (FileSystem.Statistics s : FileSystem.getAllStatistics()) {
      start.put(s, snapshot(s));
    }
  }

  private static long[] snapshot(FileSystem.Statistics s) {
    FileSystem.Statistics.StatisticsData d = s.getThreadStatistics();
    return new long[] {d.getBytesRead(), d.getBytesWritten(), d.getReadOps(), d.getLargeReadOps(),
        d.getWriteOps()};
  }

  /** Adds what the thread did since construction to {@code counters}. */
  public void addTo(AttemptCounters counters) {
    Map<String, long[]> byScheme = new HashMap<>();
    for (FileSystem.Statistics s : FileSystem.getAllStatistics()) {
      long[] now = snapshot(s);
      long[] before = start.getOrDefault(s, new long[now.length]);
      long[] sum = byScheme.computeIfAbsent(s.getScheme(), k -> new long[now.length]);
      for (int i = 0; i < now.length; i++) {
        sum[i] += now[i] - before[i];
      }
    }
    byScheme.forEach(counters::addFileSystem);
  }
}
