package io.vivace.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Deletes a folder and everything in it when the JVM exits ({@code File.deleteOnExit} leaves
 * non-empty folders behind).
 */
final class DeleteOnExit {

  private DeleteOnExit() {}

  static void register(Path dir) {
    Thread hook = new Thread(() -> deleteRecursively(dir), "vivace-delete-" + dir.getFileName());
    Runtime.getRuntime().addShutdownHook(hook);
  }

  static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(DeleteOnExit::deleteQuietly);
    } catch (IOException | UncheckedIOException e) {
      // Best effort: the JVM is exiting and a temp folder is all that is left behind.
    }
  }

  private static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // See deleteRecursively.
    }
  }
}
