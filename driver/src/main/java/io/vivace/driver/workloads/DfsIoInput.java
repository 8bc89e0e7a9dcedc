package io.vivace.driver.workloads;

import io.vivace.driver.GeneratedSize;
import io.vivace.driver.InputData;
import io.vivace.driver.OutputDigest;
import io.vivace.driver.Phase;
import io.vivace.driver.WorkloadContext;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The files {@code TestDFSIO -read} reads, written by {@code TestDFSIO -write} into {@code
 * io_data} of the data directory (its control files and statistics are removed); the checksum is
 * the SHA-256 of the files.
 */
final class DfsIoInput implements InputData {

  private final long files;
  private final long fileMb;

  DfsIoInput(long files, long fileMb) {
    this.files = files;
    this.fileMb = fileMb;
  }

  @Override
  public String key() {
    return "dfsio-files=" + files + "-file_mb=" + fileMb;
  }

  @Override
  public Map<String, String> params() {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("files", Long.toString(files));
    params.put("file_mb", Long.toString(fileMb));
    return params;
  }

  @Override
  public long requestedBytes() {
    return files * fileMb * DfsIo.MB;
  }

  @Override
  public String sizeMismatch(long actualBytes) {
    return GeneratedSize.exact(requestedBytes(), actualBytes);
  }

  @Override
  public Path files(Path dir) {
    return new Path(dir, DfsIo.DATA_DIR);
  }

  @Override
  public void generate(WorkloadContext ctx, Path dir) throws Exception {
    DfsIo.run(ctx, Phase.PREPARE, "-write", dir, files, fileMb);
    FileSystem fs = dir.getFileSystem(ctx.conf());
    fs.delete(new Path(dir, "io_control"), true);
    fs.delete(new Path(dir, "io_write"), true);
  }

  @Override
  public Fingerprint fingerprint(WorkloadContext ctx, Path dir) throws Exception {
    return new Fingerprint(OutputDigest.ofBytes(dir.getFileSystem(ctx.conf()), files(dir)),
        Map.of());
  }
}
