package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import io.vivace.driver.InputData;
import io.vivace.driver.Param;
import io.vivace.driver.Params;
import io.vivace.driver.Phase;
import io.vivace.driver.Validation;
import io.vivace.driver.WorkloadContext;
import io.vivace.workloads.pagerank.PageLine;
import io.vivace.workloads.pagerank.PageRank;
import io.vivace.workloads.pagerank.PageRankProfile;
import io.vivace.workloads.pagerank.PageRankReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * PageRank ({@link PageRank}: one job per iteration, damping 0.85) on PageRankGen's graph;
 * defaults are HiBench's small profile. Validated against {@link PageRankReference} (every rank
 * within 1e-12) when there are at most {@value #REFERENCE_PAGES} pages, else by the page count and
 * ranks summing to 1. {@code results.pagerank} holds the iterations run.
 */
final class PageRankWorkload extends ParamsWorkload {

  static final String NAME = "pagerank";
  static final long REFERENCE_PAGES = 1_000_000;
  static final double DAMPING = 0.85;
  private static final PageRankProfile SMALL = PageRankProfile.SMALL;
  static final String DESCRIPTION = "PageRank, one job per iteration, on a Zipf-linked graph;"
      + " checked against a single-process PageRank up to 1,000,000 pages";
  // HiBench's profiles: tiny is pages=50, large pages=500000, huge pages=5000000 (3 iterations).
  static final List<Param> PARAMS = List.of(
      Param.integer("pages", SMALL.pages, 2, "pages", "pages of the generated graph"),
      Param.integer("iterations", SMALL.iterations, 1, "", "iterations (jobs)"),
      SharedParams.maps(),
      Param.integer("reduces", 2, 1, "", "reduce tasks of each iteration"),
      SharedParams.seed());

  private Path output;

  PageRankWorkload(Params params) {
    super(NAME, params);
  }

  @Override
  public InputData input() {
    return new PageRankInput(params.get("pages"), params.get("maps"), params.get("seed"));
  }

  @Override
  public void run(WorkloadContext ctx) throws Exception {
    output = ctx.workPath("pagerank-out");
    ctx.runTool(Phase.RUN, "pagerank", new PageRank(), Map.of(), "-pages",
        Long.toString(params.get("pages")), "-iterations", Long.toString(params.get("iterations")),
        "-damping", Double.toString(DAMPING), "-reduces", Long.toString(params.get("reduces")),
        ctx.data().path().toString(), output.toString());
    ctx.putResult("pagerank", Map.of("iterations", params.get("iterations")));
  }

  @Override
  public Validation validate(WorkloadContext ctx) throws Exception {
    FileSystem fs = output.getFileSystem(ctx.conf());
    int iterations = params.intValue("iterations");
    Path last = new Path(output, "iteration-" + (iterations - 1));
    long outputBytes = DataFiles.bytes(fs, last);
    List<String> lines = TextParts.lines(fs, last);
    long pages = params.get("pages");
    double[] ranks = new double[(int) Math.min(pages, Integer.MAX_VALUE - 8)];
    double total = 0;
    for (String line : lines) {
      PageLine page = PageLine.parse(line, 0);
      if (page == null || page.page() >= ranks.length) {
        return Validation.failed("pagerank: not a page line: " + line, null, outputBytes);
      }
      ranks[(int) page.page()] = page.rank();
      total += page.rank();
    }
    if (lines.size() != pages || Math.abs(total - 1) > 1e-6) {
      return Validation.failed("pagerank: " + lines.size() + " pages ranked, expected " + pages
          + "; the ranks sum to " + total, null, outputBytes);
    }
    if (pages > REFERENCE_PAGES) {
      return Validation.passed("pagerank: " + pages + " pages ranked, summing to 1 (no reference"
          + " above " + REFERENCE_PAGES + " pages)", null, outputBytes);
    }
    List<PageLine> graph = new ArrayList<>();
    for (String line : TextParts.lines(fs, ctx.data().path())) {
      graph.add(PageLine.parse(line, 1.0 / pages));
    }
    double[] expected = PageRankReference.rank(graph, (int) pages, iterations, DAMPING, 0);
    for (int p = 0; p < pages; p++) {
      if (Math.abs(expected[p] - ranks[p]) > 1e-12) {
        return Validation.failed("pagerank: page " + p + " ranked " + ranks[p]
            + ", the single-process reference " + expected[p], null, outputBytes);
      }
    }
    return Validation.passed("pagerank: the ranks of the single-process reference after "
        + iterations + " iterations, within 1e-12", null, outputBytes);
  }
}
