package io.vivace.localdisk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.mapreduce.MRConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scratch folders over one or several local folders, on the real local file system. */
class ScratchDirTest {

  @TempDir
  Path root;

  @Test
  void firstFileMakesItsMissingDirectory() throws IOException {
    File dir = root.resolve("job/attempt_1_0001_m_000000_0").toFile();
    assertFalse(dir.exists());
    ScratchDir scratch = ScratchDir.of(dir);
    File file;
    try (ScratchOutput out = scratch.create("spill0.out", 3)) {
      out.write(new byte[] {1, 2, 3});
      file = out.file();
    }
    assertEquals(new File(dir, "spill0.out"), file);
    assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(file.toPath()));
    try (OutputStream out = scratch.create("spill1.out", 0)) {
      out.write(4);
    }
    assertArrayEquals(new byte[] {4}, Files.readAllBytes(dir.toPath().resolve("spill1.out")));
  }

  @Test
  void directoryThatCannotBeMadeIsNamedInTheError() throws IOException {
    File notADirectory = Files.writeString(root.resolve("plain-file"), "x").toFile();
    File dir = new File(notADirectory, "attempt");
    IOException e = assertThrows(IOException.class, () -> ScratchDir.of(dir).create("file.out", 10));
    assertTrue(e.getMessage().contains(dir.getPath()), e.getMessage());
    assertTrue(e.getMessage().contains(MRConfig.LOCAL_DIR), e.getMessage());
  }

  private List<File> jobFolders(int n) {
    List<File> dirs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      dirs.add(root.resolve("disk" + i + "/vivace/job_1_0001").toFile());
      assertTrue(dirs.get(i).mkdirs());
    }
    return dirs;
  }

  private static int filesIn(File dir) {
    String[] names = dir.list();
    return names == null ? 0 : names.length;
  }

  @Test
  void filesGoRoundRobinOverFoldersWithRoom() throws IOException {
    List<File> dirs = jobFolders(3);
    ScratchDir scratch = LocalDirs.of(dirs.toArray(new File[0])).scratch("attempt_1_0001_m_000000_0");
    for (int i = 0; i < 7; i++) {
      try (ScratchOutput out = scratch.create("spill" + i + ".out", 1000)) {
        out.write(new byte[1000]);
      }
    }
    List<Integer> counts = new ArrayList<>();
    for (File dir : dirs) {
      counts.add(filesIn(new File(dir, "attempt_1_0001_m_000000_0")));
    }
    assertEquals(7, counts.stream().mapToInt(Integer::intValue).sum(), counts.toString());
    for (int c : counts) {
      assertTrue(c == 2 || c == 3, "7 files over 3 folders, in turn: " + counts);
    }

    scratch.delete();
    for (File dir : dirs) {
      assertFalse(new File(dir, "attempt_1_0001_m_000000_0").exists(), "attempt folder left in " + dir);
      assertTrue(dir.isDirectory(), "the job's own folder stays until the job ends: " + dir);
    }
  }

  @Test
  void aFolderThatCannotBeUsedIsSkippedWhileOthersCan() throws IOException {
    File good = jobFolders(1).get(0);
    File notADirectory = Files.writeString(root.resolve("plain-file"), "x").toFile();
    File bad = new File(notADirectory, "vivace/job_1_0001");
    ScratchDir scratch = LocalDirs.of(bad, good).scratch("attempt");
    for (int i = 0; i < 4; i++) {
      try (ScratchOutput out = scratch.create("spill" + i + ".out", 0)) {
        out.write(i);
        assertEquals(new File(good, "attempt/spill" + i + ".out"), out.file());
      }
    }
    assertEquals(4, filesIn(new File(good, "attempt")));
  }
}
