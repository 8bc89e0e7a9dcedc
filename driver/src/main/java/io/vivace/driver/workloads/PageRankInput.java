package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import io.vivace.driver.InputData;
import io.vivace.driver.OutputDigest;
import io.vivace.driver.Phase;
import io.vivace.driver.WorkloadContext;
import io.vivace.workloads.pagerank.PageRankGen;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.Path;

/**
 * PageRankGen's graph ({@code pages} pages with Zipf-linked out-links, one file per map, from a
 * seed). Sized in pages, not bytes: {@code requested_bytes} is 0 and any non-empty size passes;
 * the checksum is the SHA-256 of the files.
 */
final class PageRankInput implements InputData {

  private final Map<String, String> params = new LinkedHashMap<>();

  PageRankInput(long pages, long maps, long seed) {
    params.put("pages", Long.toString(pages));
    params.put("maps", Long.toString(maps));
    params.put("seed", Long.toString(seed));
  }

  @Override
  public String key() {
    return "pagerank-pages=" + params.get("pages") + "-maps=" + params.get("maps") + "-seed="
        + params.get("seed");
  }

  @Override
  public Map<String, String> params() {
    return params;
  }

  @Override
  public long requestedBytes() {
    return 0;
  }

  @Override
  public String sizeMismatch(long actualBytes) {
    return actualBytes > 0 ? null : "no pages written";
  }

  @Override
  public void generate(WorkloadContext ctx, Path dir) throws Exception {
    ctx.runTool(Phase.PREPARE, "pagerankgen", new PageRankGen(), Map.of(), "-maps",
        params.get("maps"), "-seed", params.get("seed"), params.get("pages"), dir.toString());
    DataFiles.checkFileCount(dir.getFileSystem(ctx.conf()), dir,
        Integer.parseInt(params.get("maps")), "pagerankgen");
  }

  @Override
  public Fingerprint fingerprint(WorkloadContext ctx, Path dir) throws Exception {
    return new Fingerprint(OutputDigest.ofBytes(dir.getFileSystem(ctx.conf()), dir), Map.of());
  }
}
