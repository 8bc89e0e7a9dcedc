package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import io.vivace.driver.GeneratedSize;
import io.vivace.driver.InputData;
import io.vivace.driver.Phase;
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
final class PlasmaInput implements InputData {

  static final String CHECKSUM_PREFIX = "plasmasum:";

  private final long bytes;
  private final int maps;
  private final long seed;

  PlasmaInput(long bytes, int maps, long seed) {
    this.bytes = bytes;
    this.maps = maps;
    this.seed = seed;
  }

  static String checksum(PlasmaScan scan) {
    return CHECKSUM_PREFIX + scan.lines() + ":" + Long.toHexString(scan.checksum());
  }

  @Override
  public String key() {
    return "plasma-bytes=" + bytes + "-maps=" + maps + "-seed=" + seed;
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
    return GeneratedSize.exact(PlasmaGen.lines(bytes) * PlasmaLine.BYTES, actualBytes);
  }

  @Override
  public void generate(WorkloadContext ctx, Path dir) throws Exception {
    ctx.runTool(Phase.PREPARE, "plasmagen", new PlasmaGen(), Map.of(), "-maps",
        Integer.toString(maps), "-seed", Long.toString(seed), Long.toString(bytes), dir.toString());
    DataFiles.checkFileCount(dir.getFileSystem(ctx.conf()), dir, maps, "plasmagen");
  }

  @Override
  public Fingerprint fingerprint(WorkloadContext ctx, Path dir) throws Exception {
    PlasmaScan scan = PlasmaScan.of(dir.getFileSystem(ctx.conf()), dir);
    return new Fingerprint(checksum(scan), Map.of("lines", scan.lines()));
  }
}
