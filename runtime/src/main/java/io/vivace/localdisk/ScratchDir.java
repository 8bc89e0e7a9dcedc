package io.vivace.localdisk;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.fs.FileUtil;

/**
 * A scratch folder of a job (a task attempt's, or the merge-ahead's) spread over the job's local
 * folders ({@link LocalDirs}): {@code <job folder>/<name>} on each disk, made by the first file
 * placed there. Most attempts never write one, and making and removing an empty folder per task is
 * a good part of a short task's system calls.
 */
public final class ScratchDir {

  private final LocalDirs dirs;
  private final String name;
  /** Whether the folder was made on each disk; guarded by this. */
  private final boolean[] made;

  ScratchDir(LocalDirs dirs, String name) {
    this.dirs = dirs;
    this.name = name;
    this.made = new boolean[dirs.count()];
  }

  /** One existing or future folder on one disk. */
  public static ScratchDir of(File dir) {
    return LocalDirs.of(dir).scratch("");
  }

  /**
   * A new file {@code fileName} in this folder on the disk chosen for {@code expectedBytes} (0 if
   * unknown); a write that fails there moves it to another disk when one has room.
   */
  public ScratchOutput create(String fileName, long expectedBytes) throws IOException {
    return new ScratchOutput(this, fileName, expectedBytes);
  }

  LocalDirs dirs() {
    return dirs;
  }

  /** {@code fileName}'s path under the job's folder, for messages. */
  String path(String fileName) {
    return name.isEmpty() ? fileName : name + "/" + fileName;
  }

  private File on(int disk) {
    return name.isEmpty() ? dirs.dir(disk) : new File(dirs.dir(disk), name);
  }

  /** The folder on disk {@code disk}, made if it is not yet. */
  File folder(int disk) throws IOException {
    File folder = on(disk);
    synchronized (this) {
      if (!made[disk]) {
        if (!folder.isDirectory() && !folder.mkdirs() && !folder.isDirectory()) {
          throw new IOException("cannot create task scratch directory " + folder);
        }
        made[disk] = true;
      }
    }
    return folder;
  }

  /** Removes the folder and its files from every disk where a file was placed. */
  public void delete() {
    for (int disk = 0; disk < made.length; disk++) {
      boolean wasMade;
      synchronized (this) {
        wasMade = made[disk];
        made[disk] = false;
      }
      if (wasMade) {
        FileUtil.fullyDelete(on(disk));
      }
    }
  }

  @Override
  public String toString() {
    return name + " in " + dirs;
  }
}
