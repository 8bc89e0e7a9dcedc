package io.vivace.driver.workloads;

import io.vivace.driver.GeneratedSize;
import io.vivace.driver.WorkloadContext;
import io.vivace.workloads.plasma.PlasmaGen;
import io.vivace.workloads.plasma.PlasmaLine;
import io.vivace.workloads.plasma.PlasmaScan;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.Path;

/**
 * PlasmaGen's 100-byte lines, {@code round(bytes / 100)} of them in one file per map, from a
 * seed; the checksum is the line count and the sum of the lines' CRC32s ({@link PlasmaScan}), as
 * {@code plasmasum:<lines>:<hex>}.
 */
final class PlasmaInput extends GeneratedInput {

  static final String CHECKSUM_PREFIX = "plasmasum:";

  private final long bytes;

  PlasmaInput(long bytes, int maps, long seed) {
    super("plasma", bytes, params(bytes, maps, seed));
    this.bytes = bytes;
  }

  /** {@code bytes}, {@code maps} and {@code seed}, in that order. */
  static Map<String, String> params(long bytes, long maps, long seed) {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("bytes", Long.toString(bytes));
    params.put("maps", Long.toString(maps));
    params.put("seed", Long.toString(seed));
    return params;
  }

  static String checksum(PlasmaScan scan) {
    return CHECKSUM_PREFIX + scan.lines() + ":" + Long.toHexString(scan.checksum());
  }

  @Override
  public String sizeMismatch(long actualBytes) {
    return GeneratedSize.exact(PlasmaGen.lines(bytes) * PlasmaLine.BYTES, actualBytes);
  }

  @Override
  public void generate(WorkloadContext ctx, Path dir) throws Exception {
    runGenerator(ctx, dir, "plasmagen", new PlasmaGen(), Map.of(), Long.toString(bytes));
  }

  @Override
  public Fingerprint fingerprint(WorkloadContext ctx, Path dir) throws Exception {
    PlasmaScan scan = PlasmaScan.of(dir.getFileSystem(ctx.conf()), dir);
    return new Fingerprint(checksum(scan), Map.of("lines", scan.lines()));
  }
}
