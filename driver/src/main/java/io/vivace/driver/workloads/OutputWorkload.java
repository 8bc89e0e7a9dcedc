package io.vivace.driver.workloads;

import io.vivace.driver.Params;
import io.vivace.driver.WorkloadContext;
import java.io.IOException;
import org.apache.hadoop.fs.Path;

/**
 * A workload whose run writes one output directory: the driver's own under the work root, or,
 * with {@code --output}, one another system wrote for the validators to check.
 */
abstract class OutputWorkload extends ParamsWorkload {

  private final String outputName;

  OutputWorkload(String name, Params params, String outputName) {
    super(name, params);
    this.outputName = outputName;
  }

  @Override
  public final boolean writesOutput() {
    return true;
  }

  final Path output(WorkloadContext ctx) throws IOException {
    return ctx.outputPath(outputName);
  }
}
