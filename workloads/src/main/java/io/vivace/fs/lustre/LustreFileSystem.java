package io.vivace.fs.lustre;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * A Hadoop {@link FileSystem} for the scheme {@value #SCHEME}: {@code lustre:///a/b} is the file
 * {@code a/b} under the directory {@value LustreSettings#ROOT} of a shared POSIX mount (a Lustre
 * client mount, or any directory every node sees at the same place). Reads and writes go through
 * Hadoop's raw local file system (no checksum files); new files get the configured stripe layout
 * ({@link StripeLayout}); block locations are {@value LustreSettings#BLOCK_SIZE}-sized slices of
 * a file on {@code localhost}, so input formats plan splits without a NameNode.
 *
 * <p>Registered for {@code lustre} in {@code META-INF/services/org.apache.hadoop.fs.FileSystem};
 * {@code fs.lustre.impl=io.vivace.fs.lustre.LustreFileSystem} names it explicitly.
 */
public class LustreFileSystem extends FileSystem {

  public static final String SCHEME = "lustre";
  private static final String[] HOSTS = {"localhost"};

  private URI uri;
  private LustreSettings settings;
  private StripeLayout stripes;
  private RawLocalFileSystem local;
  private Path workingDir;

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    setConf(conf);
    uri = URI.create(SCHEME + ":///");
    settings = LustreSettings.of(conf);
    stripes = new StripeLayout(settings);
    local = new RawLocalFileSystem();
    local.initialize(URI.create("file:///"), conf);
    workingDir = new Path(uri.toString());
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public URI getUri() {
    return uri;
  }

  /** What happened to the configured stripe layout: applied, not applied (why) or none asked. */
  public String stripeStatus() {
    return stripes.status();
  }

  public LustreSettings settings() {
    return settings;
  }

  /** The file of a {@code lustre} path on the mount. */
  public java.nio.file.Path file(Path path) {
    String inside = makeQualified(path).toUri().getPath();
    java.nio.file.Path file = settings.root().resolve(inside.replaceFirst("^/+", "")).normalize();
    if (!file.startsWith(settings.root())) {
      throw new IllegalArgumentException(path + " leaves the root " + settings.root());
    }
    return file;
  }

  private Path localPath(Path path) {
    return new Path(file(path).toUri());
  }

  private Path lustrePath(java.nio.file.Path file) {
    String inside = settings.root().relativize(file).toString();
    return new Path(SCHEME + ":///" + inside);
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) throws IOException {
    return local.open(localPath(path), bufferSize);
  }

  @Override
  public FSDataOutputStream create(Path path, FsPermission permission, boolean overwrite,
      int bufferSize, short replication, long blockSize, Progressable progress) throws IOException {
    java.nio.file.Path file = file(path);
    if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      if (!overwrite) {
        throw new org.apache.hadoop.fs.FileAlreadyExistsException(path + " already exists");
      }
      if (Files.isDirectory(file)) {
        throw new IOException(path + " is a directory");
      }
      Files.delete(file);
    }
    Files.createDirectories(file.getParent());
    stripes.apply(file);
    return local.create(new Path(file.toUri()), permission, true, bufferSize, replication,
        blockSize, progress);
  }

  @Override
  public FSDataOutputStream append(Path path, int bufferSize, Progressable progress)
      throws IOException {
    return local.append(localPath(path), bufferSize, progress);
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    return local.rename(localPath(src), localPath(dst));
  }

  @Override
  public boolean delete(Path path, boolean recursive) throws IOException {
    return local.delete(localPath(path), recursive);
  }

  @Override
  public FileStatus[] listStatus(Path path) throws IOException {
    java.nio.file.Path file = file(path);
    if (!Files.isDirectory(file)) {
      return new FileStatus[] {getFileStatus(path)};
    }
    List<FileStatus> statuses = new ArrayList<>();
    try (var children = Files.list(file)) {
      for (java.nio.file.Path child : (Iterable<java.nio.file.Path>) children::iterator) {
        try {
          statuses.add(status(child));
        } catch (FileNotFoundException e) {
          // removed since it was listed
        }
      }
    } catch (NoSuchFileException e) {
      throw new FileNotFoundException(path + " does not exist");
    }
    return statuses.toArray(new FileStatus[0]);
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    workingDir = makeQualified(dir);
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDir;
  }

  @Override
  public boolean mkdirs(Path path, FsPermission permission) throws IOException {
    return local.mkdirs(localPath(path), permission);
  }

  @Override
  public FileStatus getFileStatus(Path path) throws IOException {
    return status(file(path));
  }

  @Override
  public void setPermission(Path path, FsPermission permission) throws IOException {
    local.setPermission(localPath(path), permission);
  }

  @Override
  public void setTimes(Path path, long mtime, long atime) throws IOException {
    local.setTimes(localPath(path), mtime, atime);
  }

  @Override
  public long getDefaultBlockSize(Path path) {
    return settings.blockSize();
  }

  @Override
  @SuppressWarnings("deprecation")
  public long getDefaultBlockSize() {
    return settings.blockSize();
  }

  /** Slices of {@value LustreSettings#BLOCK_SIZE} bytes, each on {@code localhost}. */
  @Override
  public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len) {
    if (file == null || file.isDirectory() || start < 0 || len < 0 || start >= file.getLen()) {
      return new BlockLocation[0];
    }
    long blockSize = settings.blockSize();
    long end = Math.min(file.getLen(), start + len);
    List<BlockLocation> blocks = new ArrayList<>();
    for (long offset = start / blockSize * blockSize; offset < end; offset += blockSize) {
      long length = Math.min(blockSize, file.getLen() - offset);
      blocks.add(new BlockLocation(HOSTS, HOSTS, offset, length));
    }
    return blocks.toArray(new BlockLocation[0]);
  }

  private FileStatus status(java.nio.file.Path file) throws IOException {
    PosixFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, PosixFileAttributes.class);
    } catch (NoSuchFileException e) {
      throw new FileNotFoundException(lustrePath(file) + " does not exist (" + file + ")");
    }
    FsPermission permission = FsPermission.valueOf(
        (attributes.isDirectory() ? "d" : "-") + PosixFilePermissions.toString(attributes.permissions()));
    return new FileStatus(attributes.isDirectory() ? 0 : attributes.size(),
        attributes.isDirectory(), 1, settings.blockSize(), attributes.lastModifiedTime().toMillis(),
        attributes.lastAccessTime().toMillis(), permission, attributes.owner().getName(),
        attributes.group().getName(), lustrePath(file));
  }
}
