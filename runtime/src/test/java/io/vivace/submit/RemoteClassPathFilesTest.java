package io.vivace.submit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM's copies of its jobs' class path files from a file system not local to it (played by the
 * local one, read through Hadoop's {@link FileSystem} as a remote one is): one copy for a file read
 * again and again, a new one when the file changed, another for another user.
 */
class RemoteClassPathFilesTest {

  @TempDir
  java.nio.file.Path dir;

  private final RemoteClassPathFiles files = new RemoteClassPathFiles();

  private FileSystem fs() throws Exception {
    return FileSystem.getLocal(new Configuration()).getRaw();
  }

  private Path write(String name, String content) throws Exception {
    java.nio.file.Path file = dir.resolve("remote").resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
    return new Path(file.toUri());
  }

  private static String read(File file) throws Exception {
    return Files.readString(file.toPath(), StandardCharsets.UTF_8);
  }

  @Test
  void aFileReadAgainIsCopiedOnceUnderTheJvmsFolder() throws Exception {
    Path jar = write("job.jar", "classes, first build");
    File root = dir.resolve("local/vivace").toFile();
    File first = files.copyOf(fs(), jar, root);
    File again = files.copyOf(fs(), jar, root);
    assertEquals(first, again, "the copy made for the first job, for the second");
    assertEquals("classes, first build", read(first));
    assertTrue(first.toPath().startsWith(root.toPath()), first + " under " + root);
    assertNotEquals(new File(jar.toUri().getPath()), first, "a copy, not the file itself");
  }

  @Test
  void aChangedFileIsCopiedAgainAndTheOldCopyStaysForTheJobsReadingIt() throws Exception {
    Path jar = write("job.jar", "classes, first build");
    File root = dir.resolve("local/vivace").toFile();
    File first = files.copyOf(fs(), jar, root);
    write("job.jar", "classes, second build, longer");
    File second = files.copyOf(fs(), jar, root);
    assertNotEquals(first, second);
    assertEquals("classes, second build, longer", read(second), "never the older jar's classes");
    assertEquals("classes, first build", read(first));
  }

  @Test
  void anotherUserIsGivenACopyOfItsOwn() throws Exception {
    Path jar = write("job.jar", "classes");
    File root = dir.resolve("local/vivace").toFile();
    File mine = files.copyOf(fs(), jar, root);
    File theirs = UserGroupInformation.createRemoteUser("someone-else").doAs(
        (PrivilegedExceptionAction<File>) () -> files.copyOf(fs(), jar, root));
    assertNotEquals(mine, theirs);
    assertEquals("classes", read(theirs));
  }
}
