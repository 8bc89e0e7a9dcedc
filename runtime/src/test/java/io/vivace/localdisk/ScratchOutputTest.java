package io.vivace.localdisk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.testing.SmallDisk;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.hadoop.mapreduce.MRConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scratch files on a local folder that fills up for real (a 1 MB tmpfs): skipped for a file too
 * large for it, moved to another folder when a write finds it full, and a clear error when no
 * folder has room.
 */
@Timeout(60)
class ScratchOutputTest {

  private static final int MB = 1 << 20;
  private static final int CHUNK = 256 * 1024;

  @TempDir
  Path root;

  private static File jobFolder(File disk) {
    File dir = new File(disk, "vivace/job_9_0001");
    assertTrue(dir.mkdirs(), "cannot make " + dir);
    return dir;
  }

  private static byte[] data(int bytes) {
    byte[] b = new byte[bytes];
    new Random(42).nextBytes(b);
    return b;
  }

  /** Writes {@code data} in chunks, as the writers' buffered streams do; returns the file it ended in. */
  private static File write(ScratchOutput out, byte[] data) throws IOException {
    try (out) {
      for (int at = 0; at < data.length; at += CHUNK) {
        out.write(data, at, Math.min(CHUNK, data.length - at));
      }
    }
    return out.file();
  }

  private static List<Path> files(File dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir.toPath())) {
      return walk.filter(Files::isRegularFile).toList();
    }
  }

  /** The job's folder on a roomy disk beside {@code small}'s, and a scratch folder over both. */
  private record SmallAndRoomy(File roomy, ScratchDir scratch) {
  }

  private SmallAndRoomy smallAndRoomy(SmallDisk small) {
    File roomy = jobFolder(root.resolve("roomy").toFile());
    return new SmallAndRoomy(roomy, LocalDirs.of(jobFolder(small.dir()), roomy).scratch("attempt"));
  }

  @Test
  void aFileLargerThanAFoldersFreeSpaceGoesElsewhere() throws IOException {
    try (SmallDisk small = SmallDisk.mount(root.resolve("small").toFile(), "1m")) {
      SmallAndRoomy disks = smallAndRoomy(small);
      for (int i = 0; i < 4; i++) {
        File file = write(disks.scratch().create("spill" + i + ".out", 2 * MB), data(2 * MB));
        assertEquals(new File(disks.roomy(), "attempt/spill" + i + ".out"), file);
      }
      assertTrue(files(small.dir()).isEmpty(), "nothing tried on the small disk: " + files(small.dir()));
    }
  }

  @Test
  void aWriteThatFillsItsFolderMovesTheFileWithItsBytesToAnotherFolder() throws IOException {
    try (SmallDisk small = SmallDisk.mount(root.resolve("small").toFile(), "1m")) {
      SmallAndRoomy disks = smallAndRoomy(small);
      // the estimate is too low, as a compressed spill's can be; round robin: one of two files starts on the small disk
      byte[] data = data(3 * MB);
      List<File> written = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        written.add(write(disks.scratch().create("spill" + i + ".out", 1000), data));
      }
      for (File file : written) {
        assertEquals(new File(disks.roomy(), "attempt/" + file.getName()), file, "moved off the full disk");
        assertArrayEquals(data, Files.readAllBytes(file.toPath()), "every byte of " + file);
      }
      assertTrue(files(small.dir()).isEmpty(), "the partial file is removed: " + files(small.dir()));
    }
  }

  @Test
  void whenNoFolderHasRoomTheErrorNamesEachFolderAndTheBytesNeeded() throws IOException {
    try (SmallDisk small1 = SmallDisk.mount(root.resolve("small1").toFile(), "1m");
         SmallDisk small2 = SmallDisk.mount(root.resolve("small2").toFile(), "1m")) {
      File dir1 = jobFolder(small1.dir());
      File dir2 = jobFolder(small2.dir());
      ScratchDir scratch = LocalDirs.of(dir1, dir2).scratch("attempt_9_0001_m_000003_0");
      ScratchOutput out = scratch.create("spill2.out", 3 * MB);
      IOException e = assertThrows(IOException.class, () -> write(out, data(3 * MB)));
      String message = e.getMessage();
      assertTrue(message.contains(dir1.getPath()) && message.contains(dir2.getPath()), message);
      assertTrue(message.contains(MRConfig.LOCAL_DIR), message);
      assertTrue(message.contains("attempt_9_0001_m_000003_0/spill2.out"), message);
      assertTrue(message.contains("3,145,728 bytes (3.0 MB)"), "the bytes needed: " + message);
      assertTrue(message.contains("No space left on device"), "the disks' own error: " + message);

      // the writer's owner deletes what it holds; nothing else is left on either disk
      out.file().delete();
      assertTrue(files(small1.dir()).isEmpty() && files(small2.dir()).isEmpty(),
          "files left: " + files(small1.dir()) + " " + files(small2.dir()));
    }
  }
}
