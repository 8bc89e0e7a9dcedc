package io.vivace.workloads.pagerank;

import java.util.List;

/** PageRank in one process, as {@link PageRank} computes it: what the jobs are checked against. */
public final class PageRankReference {

  private PageRankReference() {}

  /** The ranks after the iterations, with PageRank's stopping rule; {@code lines} are the pages. */
  public static double[] rank(List<PageLine> lines, int pages, int iterations, double damping,
      double tolerance) {
    double[] ranks = new double[pages];
    java.util.Arrays.fill(ranks, 1.0 / pages);
    double change = Double.MAX_VALUE;
    for (int done = 0; done < iterations && change > tolerance; done++) {
      double[] next = new double[pages];
      for (PageLine line : lines) {
        double share = ranks[(int) line.page()] / line.links().length;
        for (long target : line.links()) {
          next[(int) target] += share;
        }
      }
      change = 0;
      for (int p = 0; p < pages; p++) {
        next[p] = (1 - damping) / pages + damping * next[p];
        change += Math.abs(next[p] - ranks[p]);
      }
      ranks = next;
    }
    return ranks;
  }
}
