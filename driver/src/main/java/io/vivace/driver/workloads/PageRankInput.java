package io.vivace.driver.workloads;

import io.vivace.driver.WorkloadContext;
import io.vivace.workloads.pagerank.PageRankGen;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.Path;

/**
 * PageRankGen's graph ({@code pages} pages with Zipf-linked out-links, one file per map, from a
 * seed); sized in pages ({@code requested_bytes} 0).
 */
final class PageRankInput extends GeneratedInput {

  PageRankInput(long pages, long maps, long seed) {
    super("pagerank", 0, params(pages, maps, seed));
  }

  private static Map<String, String> params(long pages, long maps, long seed) {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("pages", Long.toString(pages));
    params.put("maps", Long.toString(maps));
    params.put("seed", Long.toString(seed));
    return params;
  }

  @Override
  public void generate(WorkloadContext ctx, Path dir) throws Exception {
    runGenerator(ctx, dir, "pagerankgen", new PageRankGen(), Map.of(), params.get("pages"));
  }
}
