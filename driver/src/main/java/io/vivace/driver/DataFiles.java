package io.vivace.driver;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The data files of a directory as MapReduce input formats see them: plain files whose names do
 * not start with {@code _} or {@code .} ({@code _SUCCESS}, markers and checksums are not data), in
 * name order, which for part files is partition order.
 */
public final class DataFiles {

  private DataFiles() {}

  public static List<FileStatus> list(FileSystem fs, Path dir) throws IOException {
    List<FileStatus> files = new ArrayList<>();
    for (FileStatus status : fs.listStatus(dir)) {
      String name = status.getPath().getName();
      if (status.isFile() && !name.startsWith("_") && !name.startsWith(".")) {
        files.add(status);
      }
    }
    files.sort(Comparator.comparing(status -> status.getPath().getName()));
    return files;
  }

  /** Total bytes of the data files; 0 when the directory does not exist. */
  public static long bytes(FileSystem fs, Path dir) throws IOException {
    if (!fs.exists(dir)) {
      return 0;
    }
    return list(fs, dir).stream().mapToLong(FileStatus::getLen).sum();
  }

  public static List<Path> paths(FileSystem fs, Path dir) throws IOException {
    return list(fs, dir).stream().map(FileStatus::getPath).toList();
  }

  /** Fails when a generator wrote another number of files than it had maps. */
  public static void checkFileCount(FileSystem fs, Path dir, int expected, String generator)
      throws IOException, PhaseFailedException {
    int actual = list(fs, dir).size();
    if (actual != expected) {
      throw new PhaseFailedException(generator + " wrote " + actual + " file(s) in " + dir
          + ", expected one per map, " + expected
          + (actual == 1 ? " (Apache's local runner forces mapreduce.job.maps=1: generate with"
              + " --prepare-framework vivace, or maps=1)" : ""));
    }
  }

  static String names(List<FileStatus> files) {
    return Arrays.toString(files.stream().map(f -> f.getPath().getName()).toArray());
  }
}
