package io.vivace.workloads;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The data files of a job's input or output directory: plain files whose names do not start with
 * {@code _} or {@code .} ({@code _SUCCESS}, checksums), in name (= partition) order.
 */
public final class PartFiles {

  private PartFiles() {}

  public static List<Path> of(FileSystem fs, Path dir) throws IOException {
    List<Path> files = new ArrayList<>();
    for (FileStatus status : fs.listStatus(dir)) {
      String name = status.getPath().getName();
      if (status.isFile() && !name.startsWith("_") && !name.startsWith(".")) {
        files.add(status.getPath());
      }
    }
    files.sort(Comparator.comparing(Path::getName));
    return files;
  }
}
