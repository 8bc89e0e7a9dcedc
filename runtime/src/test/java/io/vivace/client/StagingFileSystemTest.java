package io.vivace.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The staging file system is the local one under its own scheme, with permissions through java.nio. */
class StagingFileSystemTest {

  @TempDir
  java.nio.file.Path dir;

  private FileSystem fs() throws Exception {
    return StagingFileSystem.of(dir.toString()).getFileSystem(new Configuration());
  }

  @Test
  void isFoundByItsSchemeAndQualifiesPathsWithIt() throws Exception {
    FileSystem fs = fs();
    assertTrue(fs instanceof StagingFileSystem, fs.getClass().getName());
    assertEquals(StagingFileSystem.SCHEME, fs.makeQualified(new Path(dir.toString())).toUri().getScheme());
  }

  @Test
  void permissionsSetAreTheFilesOwnAndReadBack() throws Exception {
    FileSystem fs = fs();
    Path staging = StagingFileSystem.of(dir.resolve("a/.staging").toString());
    assertTrue(FileSystem.mkdirs(fs, staging, new FsPermission((short) 0700)));
    assertEquals(PosixFilePermissions.fromString("rwx------"),
        Files.getPosixFilePermissions(dir.resolve("a/.staging")));
    fs.setPermission(staging, new FsPermission((short) 0754));
    FileStatus status = fs.getFileStatus(staging);
    assertEquals(new FsPermission((short) 0754), status.getPermission());
    assertTrue(status.isDirectory());
    assertEquals(System.getProperty("user.name"), status.getOwner());
  }

  @Test
  void filesWrittenThroughItAreListedWithTheirSizes() throws Exception {
    FileSystem fs = fs();
    Path base = StagingFileSystem.of(dir.toString());
    try (FSDataOutputStream out = fs.create(new Path(base, "job.xml"))) {
      out.write(new byte[123]);
    }
    fs.mkdirs(new Path(base, "libjars"));
    Set<String> listed = Arrays.stream(fs.listStatus(base))
        .map(s -> s.getPath().getName() + (s.isDirectory() ? "/" : ":" + s.getLen()))
        .collect(Collectors.toSet());
    assertEquals(Set.of("job.xml:123", "libjars/"), listed);
    assertEquals(123, Files.size(dir.resolve("job.xml")));
  }

  @Test
  void missingFilesAreNotFound() throws Exception {
    assertThrows(FileNotFoundException.class,
        () -> fs().getFileStatus(StagingFileSystem.of(dir.resolve("nope").toString())));
  }
}
