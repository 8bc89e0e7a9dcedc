package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import io.vivace.driver.InputData;
import io.vivace.driver.OutputDigest;
import io.vivace.driver.Phase;
import io.vivace.driver.WorkloadContext;
import io.vivace.workloads.kmeans.KMeansGen;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.Path;

/**
 * KMeansGen's points ({@code samples} of {@code dims} dimensions around {@code clusters} Gaussian
 * clusters, one file per map, from a seed). Sized in points, not bytes: {@code requested_bytes}
 * is 0 and any non-empty size passes; the checksum is the SHA-256 of the files.
 */
final class KMeansInput implements InputData {

  private final Map<String, String> params = new LinkedHashMap<>();

  KMeansInput(long samples, long dims, long clusters, long maps, long seed) {
    params.put("samples", Long.toString(samples));
    params.put("dims", Long.toString(dims));
    params.put("clusters", Long.toString(clusters));
    params.put("maps", Long.toString(maps));
    params.put("seed", Long.toString(seed));
  }

  @Override
  public String key() {
    StringBuilder key = new StringBuilder("kmeans");
    params.forEach((name, value) -> key.append('-').append(name).append('=').append(value));
    return key.toString();
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
    return actualBytes > 0 ? null : "no points written";
  }

  @Override
  public void generate(WorkloadContext ctx, Path dir) throws Exception {
    ctx.runTool(Phase.PREPARE, "kmeansgen", new KMeansGen(),
        Map.of(KMeansGen.DIMS, params.get("dims"), KMeansGen.CLUSTERS, params.get("clusters")),
        "-maps", params.get("maps"), "-seed", params.get("seed"), params.get("samples"),
        dir.toString());
    DataFiles.checkFileCount(dir.getFileSystem(ctx.conf()), dir,
        Integer.parseInt(params.get("maps")), "kmeansgen");
  }

  @Override
  public Fingerprint fingerprint(WorkloadContext ctx, Path dir) throws Exception {
    return new Fingerprint(OutputDigest.ofBytes(dir.getFileSystem(ctx.conf()), dir), Map.of());
  }
}
