package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** The lines of a small text output (a report, a checksum), part files in order. */
final class TextParts {

  private TextParts() {}

  static List<String> lines(FileSystem fs, Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    for (Path file : DataFiles.paths(fs, dir)) {
      try (BufferedReader in = new BufferedReader(
          new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
        for (String line; (line = in.readLine()) != null; ) {
          lines.add(line);
        }
      }
    }
    return lines;
  }
}
