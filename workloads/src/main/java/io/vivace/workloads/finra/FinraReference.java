package io.vivace.workloads.finra;

import io.vivace.workloads.PartFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The query as a straightforward single-process filter: read every data file of a directory line
 * by line, keep the selected rows, order them by time and then order id. What the job must equal.
 * Malformed lines are left out (as the job does with {@code bad-records=skip}).
 */
public final class FinraReference {

  private FinraReference() {}

  /** The query's output lines ({@code symbol|id|ts}) for the rows under {@code dir}. */
  public static List<String> select(FileSystem fs, Path dir, QueryFilter filter)
      throws IOException {
    Pattern symbol = filter.symbolRegex();
    Map<String, String> selected = new TreeMap<>();
    for (Path file : PartFiles.of(fs, dir)) {
      try (BufferedReader reader = new BufferedReader(
          new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
        for (String line; (line = reader.readLine()) != null; ) {
          OrderRow.Selected row = OrderRow.parse(line);
          if (row != null && filter.selects(symbol, row)) {
            selected.put(QueryFilter.sortKey(row), QueryFilter.outputLine(row));
          }
        }
      }
    }
    return new ArrayList<>(selected.values());
  }
}
