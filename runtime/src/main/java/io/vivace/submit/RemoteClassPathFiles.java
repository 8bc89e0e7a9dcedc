package io.vivace.submit;

import java.io.File;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.ShutdownHookManager;

/**
 * This JVM's local copies of the class path files (job jars, {@code -libjars}) its jobs read from a
 * remote file system: a warm executor or session master reads a job's jar for every job, mostly the
 * same jar (a client's jar goes to the cluster once, under its content's digest). A copy is kept for
 * a file as the file system last showed it (its path, length and modification time) and for the
 * user who read it, so that a changed file is read again and no user is given a copy another read;
 * asking costs one look at the file's status. Copies live under a folder of this JVM's, removed
 * when it ends.
 */
final class RemoteClassPathFiles {

  static final RemoteClassPathFiles JVM = new RemoteClassPathFiles();

  /** A file as its file system showed it, to a user. */
  private record Version(String user, String path, long length, long modifiedMillis) {
  }

  private final Map<Version, File> copies = new ConcurrentHashMap<>();
  /** One lock a path: a file is copied once however many jobs read it at once. */
  private final Map<String, Object> locks = new ConcurrentHashMap<>();
  private final AtomicInteger next = new AtomicInteger();
  private volatile File folder;

  /** A local copy of {@code path} as it is now on {@code fs}, made under {@code root} if this JVM has none. */
  File copyOf(FileSystem fs, Path path, File root) throws IOException {
    FileStatus status = fs.getFileStatus(path);
    Version version = new Version(UserGroupInformation.getCurrentUser().getShortUserName(),
        status.getPath().toString(), status.getLen(), status.getModificationTime());
    File copy = copies.get(version);
    if (copy != null && copy.isFile()) {
      return copy;
    }
    synchronized (locks.computeIfAbsent(version.path(), p -> new Object())) {
      copy = copies.get(version);
      if (copy != null && copy.isFile()) {
        return copy;
      }
      File dir = new File(folder(root), Integer.toString(next.getAndIncrement()));
      if (!dir.mkdirs()) {
        throw new IOException("cannot create " + dir + " for a copy of " + path);
      }
      File local = new File(dir, path.getName());
      fs.copyToLocalFile(false, path, new Path(local.getAbsolutePath()), true);
      copies.put(version, local);
      return local;
    }
  }

  private synchronized File folder(File root) throws IOException {
    if (folder == null) {
      java.nio.file.Files.createDirectories(root.toPath());
      File made = java.nio.file.Files.createTempDirectory(root.toPath(), "class-path-files-").toFile();
      ShutdownHookManager.get().addShutdownHook(() -> FileUtil.fullyDelete(made), 0);
      folder = made;
    }
    return folder;
  }
}
