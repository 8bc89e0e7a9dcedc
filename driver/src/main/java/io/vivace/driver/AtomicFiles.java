package io.vivace.driver;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Local files that appear complete or not at all: written beside the target, then renamed. */
final class AtomicFiles {

  /** Writes the content of one file. */
  interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  private AtomicFiles() {}

  static void write(Path target, Content content) throws IOException {
    Path absolute = target.toAbsolutePath();
    Path dir = absolute.getParent();
    Files.createDirectories(dir);
    Path temp = Files.createTempFile(dir, "." + absolute.getFileName(), ".tmp");
    try {
      try (OutputStream out = Files.newOutputStream(temp)) {
        content.writeTo(out);
      }
      try {
        Files.move(temp, absolute, StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, absolute, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }
}
