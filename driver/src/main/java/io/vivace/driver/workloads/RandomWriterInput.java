package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import io.vivace.driver.GeneratedSize;
import io.vivace.driver.InputData;
import io.vivace.driver.OutputDigest;
import io.vivace.driver.Phase;
import io.vivace.driver.WorkloadContext;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.examples.RandomWriter;
import org.apache.hadoop.fs.Path;

/**
 * RandomWriter's random BytesWritable keys and values in SequenceFiles, one per map; the checksum
 * is the SHA-256 of the files' bytes.
 */
final class RandomWriterInput implements InputData {

  private final long bytes;
  private final int maps;

  RandomWriterInput(long bytes, int maps) {
    this.bytes = bytes;
    this.maps = maps;
  }

  @Override
  public String key() {
    return "randomwriter-bytes=" + bytes + "-maps=" + maps;
  }

  @Override
  public Map<String, String> params() {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("bytes", Long.toString(bytes));
    params.put("maps", Integer.toString(maps));
    return params;
  }

  @Override
  public long requestedBytes() {
    return bytes;
  }

  @Override
  public String sizeMismatch(long actualBytes) {
    return GeneratedSize.ofRandomWriter(bytes, maps, actualBytes);
  }

  @Override
  public void generate(WorkloadContext ctx, Path dir) throws Exception {
    ctx.runTool(Phase.PREPARE, "randomwriter", new RandomWriter(),
        RandomWriterSettings.of(RandomWriter.TOTAL_BYTES, RandomWriter.BYTES_PER_MAP, bytes, maps),
        dir.toString());
    DataFiles.checkFileCount(dir.getFileSystem(ctx.conf()), dir, maps, "randomwriter");
  }

  @Override
  public Fingerprint fingerprint(WorkloadContext ctx, Path dir) throws Exception {
    return new Fingerprint(OutputDigest.ofBytes(dir.getFileSystem(ctx.conf()), dir), Map.of());
  }
}
