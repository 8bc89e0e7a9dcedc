package io.vivace.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The part files a job wrote into its output folder, by name. */
final class Parts {

  private Parts() {}

  static List<Path> of(Path outputDir) throws IOException, DemoFailedException {
    if (!Files.isDirectory(outputDir)) {
      throw new DemoFailedException("no output folder " + outputDir);
    }
    try (Stream<Path> files = Files.list(outputDir)) {
      List<Path> parts = files.filter(f -> f.getFileName().toString().startsWith("part-"))
          .sorted().toList();
      if (parts.isEmpty()) {
        throw new DemoFailedException("no part files in " + outputDir);
      }
      return parts;
    }
  }
}
