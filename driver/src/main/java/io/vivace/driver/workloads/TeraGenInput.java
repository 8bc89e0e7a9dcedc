package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import io.vivace.driver.GeneratedSize;
import io.vivace.driver.InputData;
import io.vivace.driver.PhaseFailedException;
import io.vivace.driver.Phase;
import io.vivace.driver.WorkloadContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.examples.terasort.TeraChecksum;
import org.apache.hadoop.examples.terasort.TeraGen;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * TeraGen's rows (100 bytes each) in one file per map; the checksum is TeraSum's (TeraChecksum:
 * the sum of the rows' CRC32s as Apache's TeraValidate reports it for sorted output), as {@code
 * terasum:<hex>}.
 */
final class TeraGenInput implements InputData {

  static final int ROW_BYTES = 100;
  static final String CHECKSUM_PREFIX = "terasum:";

  private final long rows;
  private final int maps;

  TeraGenInput(long rows, int maps) {
    this.rows = rows;
    this.maps = maps;
  }

  @Override
  public String key() {
    return "teragen-rows=" + rows + "-maps=" + maps;
  }

  @Override
  public Map<String, String> params() {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("rows", Long.toString(rows));
    params.put("maps", Integer.toString(maps));
    return params;
  }

  @Override
  public long requestedBytes() {
    return rows * ROW_BYTES;
  }

  @Override
  public String sizeMismatch(long actualBytes) {
    return GeneratedSize.exact(requestedBytes(), actualBytes);
  }

  @Override
  public void generate(WorkloadContext ctx, Path dir) throws Exception {
    ctx.runTool(Phase.PREPARE, "teragen", new TeraGen(),
        Map.of(MRJobConfig.NUM_MAPS, Integer.toString(maps)), Long.toString(rows), dir.toString());
    DataFiles.checkFileCount(dir.getFileSystem(ctx.conf()), dir, maps, "teragen");
  }

  @Override
  public Fingerprint fingerprint(WorkloadContext ctx, Path dir) throws Exception {
    Path sum = ctx.workPath("terasum");
    ctx.runTool(Phase.PREPARE, "terasum", new TeraChecksum(), Map.of(), dir.toString(),
        sum.toString());
    FileSystem fs = sum.getFileSystem(ctx.conf());
    List<String> lines = TextParts.lines(fs, sum);
    if (lines.size() != 1 || lines.get(0).isBlank()) {
      throw new PhaseFailedException("terasum wrote " + lines + ", expected one checksum");
    }
    fs.delete(sum, true);
    return new Fingerprint(CHECKSUM_PREFIX + lines.get(0).trim(), Map.of());
  }
}
