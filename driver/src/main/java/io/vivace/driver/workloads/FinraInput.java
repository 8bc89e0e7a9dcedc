package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import io.vivace.driver.InputData;
import io.vivace.driver.OutputDigest;
import io.vivace.driver.Phase;
import io.vivace.driver.WorkloadContext;
import io.vivace.workloads.finra.FinraGen;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.Path;

/**
 * FinraGen's share-order table, {@code bytes} of rows in one file per map from a seed; the
 * checksum is the SHA-256 of the files' bytes (the generator is deterministic).
 */
final class FinraInput implements InputData {

  /** Longer than any row FinraGen writes: each map overshoots its share by less than this. */
  static final int MAX_ROW_BYTES = 128;

  private final long bytes;
  private final int maps;
  private final long seed;

  FinraInput(long bytes, int maps, long seed) {
    this.bytes = bytes;
    this.maps = maps;
    this.seed = seed;
  }

  @Override
  public String key() {
    return "finra-bytes=" + bytes + "-maps=" + maps + "-seed=" + seed;
  }

  @Override
  public Map<String, String> params() {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("bytes", Long.toString(bytes));
    params.put("maps", Integer.toString(maps));
    params.put("seed", Long.toString(seed));
    return params;
  }

  @Override
  public long requestedBytes() {
    return bytes;
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
    ctx.runTool(Phase.PREPARE, "finragen", new FinraGen(), Map.of(), "-maps",
        Integer.toString(maps), "-seed", Long.toString(seed), Long.toString(bytes), dir.toString());
    DataFiles.checkFileCount(dir.getFileSystem(ctx.conf()), dir, maps, "finragen");
  }

  @Override
  public Fingerprint fingerprint(WorkloadContext ctx, Path dir) throws Exception {
    return new Fingerprint(OutputDigest.ofBytes(dir.getFileSystem(ctx.conf()), dir), Map.of());
  }
}
