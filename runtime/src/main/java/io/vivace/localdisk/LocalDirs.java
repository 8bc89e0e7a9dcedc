package io.vivace.localdisk;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.util.DiskChecker.DiskErrorException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job's folders on the local disks: {@code <dir>/vivace/<job id>} in every folder listed in
 * {@code mapreduce.cluster.local.dir}, and which of them each new spill, merge or map output file
 * goes to. As Hadoop's {@code LocalDirAllocator} does for a file of known size, the choice goes
 * round robin over the folders and takes the next one with more free space than the file is
 * expected to need; a folder that could not be created, or that failed a write while it had room,
 * is not used again by the job. When no folder has room for the estimate (estimates of compressed
 * or combined output run high) the roomiest one is tried, and a write that fails there moves the
 * file to another folder ({@link ScratchOutput}). With one folder nothing is looked up per file.
 */
public final class LocalDirs {

  private static final Logger LOG = LoggerFactory.getLogger(LocalDirs.class);

  private final File[] dirs;
  /** Why a folder is no longer used, or null while it is. */
  private final AtomicReferenceArray<String> failed;
  /** Configured folders where the job's folder could not be made, with why: for error messages. */
  private final List<String> unusable;
  private final AtomicInteger cursor;

  private LocalDirs(List<File> dirs, List<String> unusable) {
    this.dirs = dirs.toArray(new File[0]);
    this.failed = new AtomicReferenceArray<>(this.dirs.length);
    this.unusable = unusable;
    // a random first folder, as Hadoop's: jobs that write one file each do not all start on the first
    this.cursor = new AtomicInteger(this.dirs.length < 2 ? 0 : ThreadLocalRandom.current().nextInt(this.dirs.length));
  }

  /**
   * Makes {@code <dir>/vivace/<jobId>} (empty) in every folder of {@code mapreduce.cluster.local.dir}
   * (default {@code ${hadoop.tmp.dir}/mapred/local}); folders where that fails are left out with a
   * warning, and when it fails in all of them the error names each one.
   */
  public static LocalDirs create(Configuration conf, String jobId) throws IOException {
    Set<File> roots = new LinkedHashSet<>();
    for (String root : conf.getTrimmedStrings(MRConfig.LOCAL_DIR,
        conf.get("hadoop.tmp.dir", "/tmp") + "/mapred/local")) {
      if (root.startsWith("file:")) {
        root = new Path(root).toUri().getPath();
      }
      roots.add(new File(root).getAbsoluteFile());
    }
    List<File> made = new ArrayList<>();
    List<String> unusable = new ArrayList<>();
    for (File root : roots) {
      File dir = new File(root, "vivace/" + jobId);
      FileUtil.fullyDelete(dir);
      if (dir.mkdirs() || dir.isDirectory()) {
        made.add(dir);
      } else {
        unusable.add(root + " (cannot create " + dir + ")");
      }
    }
    if (made.isEmpty()) {
      throw new IOException("Cannot create job local directory for " + jobId + " in "
          + (roots.size() == 1 ? "" : "any of ") + String.join(", ", unusable)
          + " (check " + MRConfig.LOCAL_DIR + ")");
    }
    if (!unusable.isEmpty()) {
      LOG.warn("Job {} does not use these folders of {}: {}", jobId, MRConfig.LOCAL_DIR, String.join(", ", unusable));
    }
    return new LocalDirs(made, unusable);
  }

  /** Existing folders used as they are (their own {@link #delete} removes them). */
  public static LocalDirs of(File... dirs) {
    return new LocalDirs(List.of(dirs), List.of());
  }

  /** The first folder: the job's own files ({@code job.xml}, its working directory, its cache). */
  public File jobDir() {
    return dirs[0];
  }

  /** The job's folder on every local disk in use. */
  public List<File> dirs() {
    return List.of(dirs);
  }

  /** A folder {@code name} in each of the job's folders, made by the first file placed there. */
  public ScratchDir scratch(String name) {
    return new ScratchDir(this, name);
  }

  /** Removes the job's folder from every local disk. */
  public void delete() {
    for (File dir : dirs) {
      FileUtil.fullyDelete(dir);
    }
  }

  int count() {
    return dirs.length;
  }

  File dir(int index) {
    return dirs[index];
  }

  /**
   * The folder for a new file expected to take {@code bytes} (0 if unknown): the next one, round
   * robin, that is in use, not in {@code tried} (may be null), and has more than that free; else
   * the roomiest such one; -1 if there is none.
   */
  int choose(long bytes, boolean[] tried) {
    int n = dirs.length;
    if (n == 1) {
      return failed.get(0) == null && (tried == null || !tried[0]) ? 0 : -1;
    }
    int start = Math.floorMod(cursor.getAndIncrement(), n);
    int roomiest = -1;
    long most = -1;
    for (int k = 0; k < n; k++) {
      int i = (start + k) % n;
      if (failed.get(i) != null || (tried != null && tried[i])) {
        continue;
      }
      long free = dirs[i].getUsableSpace();
      if (free > bytes) {
        if (k > 0) {
          cursor.set(i + 1); // next time starts after the folder taken, as Hadoop's allocator does
        }
        return i;
      }
      if (free > most) {
        most = free;
        roomiest = i;
      }
    }
    return roomiest;
  }

  /**
   * A write of {@code bytes} into folder {@code index} failed: if the folder still has room for
   * them it is failing, not full, and the job stops using it.
   */
  void writeFailed(int index, IOException e, long bytes) {
    if (dirs[index].getUsableSpace() > bytes && failed.compareAndSet(index, null, String.valueOf(e.getMessage()))) {
      LOG.warn("Local folder {} failed a write while it had room, the job stops using it: {}", dirs[index], e.toString());
    }
  }

  /**
   * The error when no folder can take a file: names every configured folder with its free space
   * and what went wrong there, and the bytes the file needs.
   *
   * @param file the file's path under the job's folders
   * @param expected the bytes it was expected to need (0 if unknown)
   * @param attempted the bytes it had when the last write failed (written plus being written)
   * @param problems what went wrong per folder (may hold nulls)
   */
  DiskErrorException noRoom(String file, long expected, long attempted, String[] problems, IOException last) {
    long needed = Math.max(expected, attempted);
    StringBuilder b = new StringBuilder("No folder of ").append(MRConfig.LOCAL_DIR)
        .append(" has room for ").append(file).append(": it needs ")
        .append(attempted >= expected ? "at least " : "about ").append(bytes(needed));
    for (int i = 0; i < dirs.length; i++) {
      b.append(i == 0 ? ". Free space: " : "; ").append(dirs[i]).append(": ").append(bytes(dirs[i].getUsableSpace()));
      String why = failed.get(i) != null ? "failing: " + failed.get(i) : problems[i];
      if (why != null) {
        b.append(" (").append(why).append(')');
      }
    }
    for (String u : unusable) {
      b.append("; ").append(u);
    }
    return new DiskErrorException(b.toString(), last);
  }

  private static String bytes(long n) {
    String exact = String.format(Locale.ROOT, "%,d bytes", n);
    if (n < 1024) {
      return exact;
    }
    String[] units = {"KB", "MB", "GB", "TB"};
    double v = n / 1024.0;
    int u = 0;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return exact + String.format(Locale.ROOT, " (%.1f %s)", v, units[u]);
  }

  @Override
  public String toString() {
    return List.of(dirs).toString();
  }
}
