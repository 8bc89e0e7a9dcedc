package io.vivace.counters;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Bytes the current thread has read and written through Hadoop file systems of one scheme.
 * Tasks run on one thread each, so differences of these totals are a task's own I/O.
 */
public final class FileSystemBytes {

  private final FileSystem.Statistics[] statistics;
  /**
   * The creating thread and its statistics data: tasks ask once or twice per record, and each
   * {@code getThreadStatistics()} is a thread-local lookup.
   */
  private final Thread owner = Thread.currentThread();
  private final FileSystem.Statistics.StatisticsData[] ownerData;
  /** The owner's data when the scheme has one statistics object (the usual case), else null. */
  private final FileSystem.Statistics.StatisticsData single;

  public FileSystemBytes(String scheme) {
    List<FileSystem.Statistics> matching = new ArrayList<>();
    for (FileSystem.Statistics s : FileSystem.getAllStatistics()) {
      if (s.getScheme().equalsIgnoreCase(scheme)) {
        matching.add(s);
      }
    }
    statistics = matching.toArray(new FileSystem.Statistics[0]);
    ownerData = new FileSystem.Statistics.StatisticsData[statistics.length];
    for (int i = 0; i < statistics.length; i++) {
      ownerData[i] = statistics[i].getThreadStatistics();
    }
    single = ownerData.length == 1 ? ownerData[0] : null;
  }

  /** Meter for the file system of {@code path} (its scheme, or the default file system's). */
  public static FileSystemBytes of(Path path, org.apache.hadoop.conf.Configuration conf) {
    try {
      return new FileSystemBytes(path.getFileSystem(conf).getScheme());
    } catch (Exception e) {
      return new FileSystemBytes("");
    }
  }

  public long read() {
    long total = 0;
    for (int i = 0; i < statistics.length; i++) {
      total += threadData(i).getBytesRead();
    }
    return total;
  }

  public long written() {
    Thread current = Thread.currentThread();
    if (single != null && current == owner) {
      return single.getBytesWritten();
    }
    long total = 0;
    for (int i = 0; i < statistics.length; i++) {
      total += threadData(i).getBytesWritten();
    }
    return total;
  }

  private FileSystem.Statistics.StatisticsData threadData(int i) {
    return Thread.currentThread() == owner ? ownerData[i] : statistics[i].getThreadStatistics();
  }
}
