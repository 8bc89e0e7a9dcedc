package io.vivace.driver.workloads;

import io.vivace.driver.WorkloadContext;
import io.vivace.workloads.bayes.BayesGen;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.Path;

/**
 * BayesGen's labelled documents ({@code pages} of them over {@code classes} labels, a SequenceFile
 * per map, from a seed); sized in documents ({@code requested_bytes} 0).
 */
final class BayesInput extends GeneratedInput {

  BayesInput(long pages, long classes, long maps, long seed) {
    super("bayes", 0, params(pages, classes, maps, seed));
  }

  private static Map<String, String> params(long pages, long classes, long maps, long seed) {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("pages", Long.toString(pages));
    params.put("classes", Long.toString(classes));
    params.put("maps", Long.toString(maps));
    params.put("seed", Long.toString(seed));
    return params;
  }

  @Override
  public void generate(WorkloadContext ctx, Path dir) throws Exception {
    runGenerator(ctx, dir, "bayesgen", new BayesGen(), Map.of(BayesGen.CLASSES, params.get("classes")),
        params.get("pages"));
  }
}
