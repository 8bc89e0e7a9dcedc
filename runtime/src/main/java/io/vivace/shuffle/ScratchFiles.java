package io.vivace.shuffle;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;

/**
 * Opens spill, merge and map output files. Their directory (a task attempt's scratch directory) is
 * made by the first file written there: most attempts never write one, and making and removing an
 * empty directory per task is a good part of a short task's system calls.
 */
public final class ScratchFiles {

  private ScratchFiles() {
  }

  public static FileOutputStream create(File file) throws IOException {
    File dir = file.getParentFile();
    if (dir != null && !dir.isDirectory() && !dir.mkdirs() && !dir.isDirectory()) {
      throw new IOException("cannot create task scratch directory " + dir);
    }
    return new FileOutputStream(file);
  }
}
