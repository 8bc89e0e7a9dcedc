package io.vivace.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks terasort's output against what teragen was asked for and what Apache's teravalidate
 * reported: {@code rows} records of 100 bytes, and a report with a checksum and no {@code error}
 * line (records out of order).
 */
final class TeraSortCheck {

  static final int ROW_BYTES = 100;

  private TeraSortCheck() {}

  /** Returns the line the demo prints when the output is right; throws when it is not. */
  static String check(Path sorted, Path report, long rows) throws IOException, DemoFailedException {
    long bytes = 0;
    for (Path part : Parts.of(sorted)) {
      bytes += Files.size(part);
    }
    if (bytes != rows * ROW_BYTES) {
      throw new DemoFailedException("terasort wrote " + bytes + " bytes, expected " + rows
          + " rows of " + ROW_BYTES + " bytes (" + sorted + ")");
    }
    List<String> lines = new ArrayList<>();
    for (Path part : Parts.of(report)) {
      lines.addAll(Files.readAllLines(part, StandardCharsets.UTF_8));
    }
    List<String> errors = lines.stream().filter(line -> line.startsWith("error")).toList();
    if (!errors.isEmpty()) {
      throw new DemoFailedException("teravalidate found records out of order (" + report + "): "
          + errors.get(0) + (errors.size() > 1 ? " and " + (errors.size() - 1) + " more" : ""));
    }
    if (lines.stream().noneMatch(line -> line.startsWith("checksum"))) {
      throw new DemoFailedException("teravalidate wrote no checksum (" + report + ")");
    }
    return "terasort output: " + rows + " rows, in order";
  }
}
