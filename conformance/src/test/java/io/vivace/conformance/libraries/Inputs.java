package io.vivace.conformance.libraries;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;

/** Deterministic text inputs for the library cases: several files, so several maps. */
public final class Inputs {

  private Inputs() {}

  /**
   * {@code files} files of {@code lines} lines each in a new folder {@code dir}, line {@code i} of
   * file {@code f} being {@code line.apply(random, f * lines + i)}.
   */
  public static Path textFiles(Path dir, int files, int lines, long seed, BiFunction<Random, Integer, String> line) {
    Random random = new Random(seed);
    try {
      Files.createDirectories(dir);
      for (int f = 0; f < files; f++) {
        List<String> text = new ArrayList<>(lines);
        for (int i = 0; i < lines; i++) {
          text.add(line.apply(random, f * lines + i));
        }
        Files.write(dir.resolve(String.format("part-%03d.txt", f)), text, StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return dir;
  }
}
