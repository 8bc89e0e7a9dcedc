package io.vivace.driver.workloads;

import io.vivace.driver.WorkloadContext;
import io.vivace.workloads.kmeans.KMeansGen;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.Path;

/**
 * KMeansGen's points ({@code samples} of {@code dims} dimensions around {@code clusters} Gaussian
 * clusters, one file per map, from a seed); sized in points ({@code requested_bytes} 0).
 */
final class KMeansInput extends GeneratedInput {

  KMeansInput(long samples, long dims, long clusters, long maps, long seed) {
    super("kmeans", 0, params(samples, dims, clusters, maps, seed));
  }

  private static Map<String, String> params(long samples, long dims, long clusters, long maps,
      long seed) {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("samples", Long.toString(samples));
    params.put("dims", Long.toString(dims));
    params.put("clusters", Long.toString(clusters));
    params.put("maps", Long.toString(maps));
    params.put("seed", Long.toString(seed));
    return params;
  }

  @Override
  public void generate(WorkloadContext ctx, Path dir) throws Exception {
    runGenerator(ctx, dir, "kmeansgen", new KMeansGen(),
        Map.of(KMeansGen.DIMS, params.get("dims"), KMeansGen.CLUSTERS, params.get("clusters")),
        params.get("samples"));
  }
}
