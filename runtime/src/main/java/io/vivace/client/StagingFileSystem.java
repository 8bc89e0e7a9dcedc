package io.vivace.client;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * The local file system under the scheme {@value #SCHEME}, where the job client stages jobs for the
 * embedded engine. Without Hadoop's native library, the local file system forks {@code chmod} for
 * every permission it sets and {@code ls} for every permission it reads: about twenty processes per
 * submitted job. This one sets and reads permissions through {@code java.nio} instead.
 */
public final class StagingFileSystem extends RawLocalFileSystem {

  public static final String SCHEME = "vivace-staging";
  private static final URI ROOT = URI.create(SCHEME + ":///");

  /** {@code path} on this file system: same local file, this scheme. */
  public static Path of(String localPath) {
    return new Path(SCHEME, null, localPath);
  }

  @Override
  public URI getUri() {
    return ROOT;
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public void setPermission(Path p, FsPermission permission) throws IOException {
    Files.setPosixFilePermissions(pathToFile(p).toPath(), toPosix(permission));
  }

  @Override
  public FileStatus getFileStatus(Path p) throws IOException {
    return status(pathToFile(p), makeQualified(p));
  }

  @Override
  public FileStatus[] listStatus(Path p) throws IOException {
    File file = pathToFile(p);
    if (!file.isDirectory()) {
      return new FileStatus[] {getFileStatus(p)};
    }
    String[] names = file.list();
    if (names == null) {
      throw new FileNotFoundException("Cannot list " + p);
    }
    FileStatus[] result = new FileStatus[names.length];
    Path dir = makeQualified(p);
    for (int i = 0; i < names.length; i++) {
      result[i] = status(new File(file, names[i]), new Path(dir, names[i]));
    }
    return result;
  }

  private FileStatus status(File file, Path qualified) throws IOException {
    PosixFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file.toPath(), PosixFileAttributes.class);
    } catch (NoSuchFileException e) {
      throw new FileNotFoundException("File " + qualified + " does not exist");
    }
    return new FileStatus(attributes.size(), attributes.isDirectory(), 1,
        getDefaultBlockSize(qualified), attributes.lastModifiedTime().toMillis(),
        attributes.lastAccessTime().toMillis(), toHadoop(attributes.permissions()),
        attributes.owner().getName(), attributes.group().getName(), qualified);
  }

  private static final PosixFilePermission[] BY_BIT = {
      PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
      PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};

  static Set<PosixFilePermission> toPosix(FsPermission permission) {
    Set<PosixFilePermission> result = EnumSet.noneOf(PosixFilePermission.class);
    short bits = permission.toShort();
    for (int i = 0; i < BY_BIT.length; i++) {
      if ((bits & (1 << i)) != 0) {
        result.add(BY_BIT[i]);
      }
    }
    return result;
  }

  static FsPermission toHadoop(Set<PosixFilePermission> permissions) {
    short bits = 0;
    for (int i = 0; i < BY_BIT.length; i++) {
      if (permissions.contains(BY_BIT[i])) {
        bits |= (short) (1 << i);
      }
    }
    return new FsPermission(bits);
  }
}
