package io.vivace.workloads.pagerank;

/**
 * A page's line: {@code page TAB target,target,...} (the generator's, every rank {@code 1 / N})
 * or {@code page TAB rank TAB target,...} (an iteration's output).
 */
public record PageLine(long page, double rank, long[] links, String linksText) {

  /** The parsed line, or null when it is not one. */
  public static PageLine parse(String line, double initialRank) {
    String[] fields = line.split("\t");
    if (fields.length < 2 || fields.length > 3) {
      return null;
    }
    try {
      String linksText = fields[fields.length - 1];
      String[] targets = linksText.split(",");
      long[] links = new long[targets.length];
      for (int i = 0; i < targets.length; i++) {
        links[i] = Long.parseLong(targets[i]);
      }
      double rank = fields.length == 3 ? Double.parseDouble(fields[1]) : initialRank;
      return new PageLine(Long.parseLong(fields[0]), rank, links, linksText);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
