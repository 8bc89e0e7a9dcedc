package io.vivace.workloads.swim;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads SWIM's trace format: one job a line, tab-separated: job name, submit time (s), gap since
 * the previous submission (s), input bytes, shuffle bytes, output bytes. Further columns (the
 * {@code withInputPaths} traces add one) are ignored; blank lines are skipped. A line with fewer
 * columns, or a value that is not a whole number of at least 0, is rejected with its line number.
 */
public final class TraceReader {

  static final int COLUMNS = 6;

  private TraceReader() {}

  /** Every job of the trace, in file order. */
  public static List<TraceJob> read(Path trace) throws IOException {
    List<TraceJob> jobs = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(trace, StandardCharsets.UTF_8)) {
      String text;
      int line = 0;
      while ((text = in.readLine()) != null) {
        line++;
        if (!text.isBlank()) {
          jobs.add(parse(trace, line, text));
        }
      }
    } catch (NoSuchFileException e) {
      throw new TraceFormatException(trace + ": no such trace file");
    }
    if (jobs.isEmpty()) {
      throw new TraceFormatException(trace + ": the trace holds no jobs");
    }
    return jobs;
  }

  /** One line of {@code trace}; {@code line} numbers it in messages. */
  static TraceJob parse(Path trace, int line, String text) {
    String[] fields = text.split("\t", -1);
    if (fields.length < COLUMNS) {
      throw new TraceFormatException(trace + ":" + line + ": " + fields.length
          + " tab-separated columns, expected at least " + COLUMNS
          + " (name, submit s, gap s, input bytes, shuffle bytes, output bytes): '" + text + "'");
    }
    return new TraceJob(line, fields[0].strip(), number(trace, line, "submit time", fields[1]),
        number(trace, line, "gap", fields[2]), number(trace, line, "input bytes", fields[3]),
        number(trace, line, "shuffle bytes", fields[4]),
        number(trace, line, "output bytes", fields[5]));
  }

  private static long number(Path trace, int line, String column, String text) {
    try {
      long value = Long.parseLong(text.strip());
      if (value >= 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new TraceFormatException(trace + ":" + line + ": " + column + " '" + text
        + "' is not a whole number >= 0");
  }

  /** A trace that cannot be read as SWIM's format; the message names the file and line. */
  public static final class TraceFormatException extends IllegalArgumentException {
    public TraceFormatException(String message) {
      super(message);
    }
  }
}
