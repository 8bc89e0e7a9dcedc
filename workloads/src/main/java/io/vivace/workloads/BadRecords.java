package io.vivace.workloads;

import java.io.IOException;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;

/**
 * What the workloads' jobs do with a malformed line of their generated formats, by the switch
 * {@value #KEY}: {@code fail} (the default) fails the task with a message naming the file and byte
 * offset; {@code skip} counts the line in {@value #GROUP} / {@value #COUNTER} and goes on.
 */
public final class BadRecords {

  public static final String KEY = "vivace.workloads.bad-records";
  public static final String GROUP = "vivace.workloads";
  public static final String COUNTER = "MALFORMED_LINES";

  private final boolean skip;

  private BadRecords(boolean skip) {
    this.skip = skip;
  }

  /** The switch as configured; an unknown value is an error naming the key. */
  public static BadRecords of(Configuration conf) {
    String mode = conf.get(KEY, "fail").trim().toLowerCase(Locale.ROOT);
    return switch (mode) {
      case "fail" -> new BadRecords(false);
      case "skip" -> new BadRecords(true);
      default -> throw new IllegalArgumentException(
          KEY + "=" + conf.get(KEY) + ": expected skip or fail");
    };
  }

  /**
   * Counts and returns when skipping, else throws an {@link IOException} saying {@code where}
   * (file and offset) and {@code why}.
   */
  public void malformed(TaskInputOutputContext<?, ?, ?, ?> context, String where, String why)
      throws IOException {
    if (!skip) {
      throw new IOException("malformed line at " + where + ": " + why + " (set " + KEY
          + "=skip to count and skip such lines)");
    }
    context.getCounter(GROUP, COUNTER).increment(1);
  }
}
