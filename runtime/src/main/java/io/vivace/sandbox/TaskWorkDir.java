package io.vivace.sandbox;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.fs.FileUtil;

/**
 * A task attempt's working directory, as a YARN container's: the job's cache files and archives
 * linked under their {@code #fragment} names. Made on first use, so that the many attempts that
 * never touch a relative path cost nothing; removed with {@link #delete}.
 */
public final class TaskWorkDir {

  private final File dir;
  private final Map<String, File> links;
  private volatile boolean made;

  /** {@code links}: name in the directory -> the localised file or unpacked archive it points to. */
  public TaskWorkDir(File dir, Map<String, File> links) {
    this.dir = dir;
    this.links = links;
  }

  public File path() {
    return dir;
  }

  /** The directory, made with its links if it is not yet. */
  public File get() {
    if (!made) {
      make();
    }
    return dir;
  }

  private synchronized void make() {
    if (made) {
      return;
    }
    try {
      Files.createDirectories(dir.toPath());
      for (Map.Entry<String, File> link : links.entrySet()) {
        Path at = dir.toPath().resolve(link.getKey());
        if (!Files.exists(at, LinkOption.NOFOLLOW_LINKS)) {
          Files.createSymbolicLink(at, link.getValue().getAbsoluteFile().toPath());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make the task's working directory " + dir, e);
    }
    made = true;
  }

  /** Removes the directory (never what its links point to), if it was made. */
  public void delete() {
    if (made) {
      FileUtil.fullyDelete(dir);
    }
  }
}
