package io.vivace.driver.workloads;

import io.vivace.driver.WorkloadContext;
import io.vivace.fs.lustre.LustreFileSystem;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Where a run's output lies on {@code lustre://}: its stripe settings and whether they were
 * applied, in {@code results.lustre}, so that a stripe sweep can tell a layout that took effect
 * from one that was only asked for.
 */
final class LustreResults {

  private LustreResults() {}

  static void put(WorkloadContext ctx, Path output) throws IOException {
    FileSystem fs = output.getFileSystem(ctx.conf());
    if (!(fs instanceof LustreFileSystem lustre)) {
      return;
    }
    Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("root", lustre.settings().root().toString());
    figures.put("stripe_count", lustre.settings().stripeCount());
    figures.put("stripe_size", lustre.settings().stripeSize());
    figures.put("block_size", lustre.settings().blockSize());
    figures.put("stripes", lustre.stripeStatus());
    ctx.putResult("lustre", figures);
  }
}
