package io.vivace.shuffle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scratch directories are made by their first file, on the real local file system. */
class ScratchFilesTest {

  @TempDir
  Path root;

  @Test
  void firstFileMakesItsMissingDirectory() throws IOException {
    File dir = root.resolve("job/attempt_1_0001_m_000000_0").toFile();
    assertFalse(dir.exists());
    File file = new File(dir, "spill0.out");
    try (OutputStream out = ScratchFiles.create(file)) {
      out.write(new byte[] {1, 2, 3});
    }
    assertTrue(dir.isDirectory());
    assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(file.toPath()));
    try (OutputStream out = ScratchFiles.create(new File(dir, "spill1.out"))) {
      out.write(4);
    }
    assertArrayEquals(new byte[] {4}, Files.readAllBytes(dir.toPath().resolve("spill1.out")));
  }

  @Test
  void directoryThatCannotBeMadeIsNamedInTheError() throws IOException {
    File notADirectory = Files.writeString(root.resolve("plain-file"), "x").toFile();
    File dir = new File(notADirectory, "attempt");
    IOException e = assertThrows(IOException.class, () -> ScratchFiles.create(new File(dir, "file.out")));
    assertTrue(e.getMessage().contains(dir.getPath()), e.getMessage());
  }
}
