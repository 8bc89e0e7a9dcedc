package io.vivace.driver.workloads;

import io.vivace.driver.WorkloadContext;
import io.vivace.workloads.finra.FinraGen;
import java.util.Map;
import org.apache.hadoop.fs.Path;

/** FinraGen's share-order table, {@code bytes} of rows in one file per map from a seed. */
final class FinraInput extends GeneratedInput {

  /** Longer than any row FinraGen writes: each map overshoots its share by less than this. */
  static final int MAX_ROW_BYTES = 128;

  private final long bytes;
  private final int maps;

  FinraInput(long bytes, int maps, long seed) {
    super("finra", bytes, PlasmaInput.params(bytes, maps, seed));
    this.bytes = bytes;
    this.maps = maps;
  }

  @Override
  public String sizeMismatch(long actualBytes) {
    long most = bytes + (long) maps * MAX_ROW_BYTES;
    return actualBytes >= bytes && actualBytes <= most ? null
        : actualBytes + " bytes on the file system, expected " + bytes + " to " + most
            + " (each map overshoots its share by less than one row)";
  }

  @Override
  public void generate(WorkloadContext ctx, Path dir) throws Exception {
    runGenerator(ctx, dir, "finragen", new FinraGen(), Map.of(), Long.toString(bytes));
  }
}
