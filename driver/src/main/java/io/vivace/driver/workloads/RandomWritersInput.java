package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import io.vivace.driver.GeneratedSize;
import io.vivace.driver.InputData;
import io.vivace.driver.Phase;
import io.vivace.driver.WorkloadContext;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Tool;

/**
 * Input written by RandomWriter or RandomTextWriter: {@code bytes} in {@code maps} files, one per
 * map. Each map writes {@code ceil(bytes / maps)}, and the total asked of the tool is a whole
 * number of maps so that it runs exactly {@code maps} of them.
 */
abstract class RandomWritersInput implements InputData {

  private final String tool;
  protected final long bytes;
  protected final int maps;

  RandomWritersInput(String tool, long bytes, int maps) {
    this.tool = tool;
    this.bytes = bytes;
    this.maps = maps;
  }

  @Override
  public final String key() {
    return tool + "-bytes=" + bytes + "-maps=" + maps;
  }

  @Override
  public final Map<String, String> params() {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("bytes", Long.toString(bytes));
    params.put("maps", Integer.toString(maps));
    return params;
  }

  @Override
  public final long requestedBytes() {
    return bytes;
  }

  @Override
  public final String sizeMismatch(long actualBytes) {
    return GeneratedSize.ofRandomWriter(bytes, maps, actualBytes);
  }

  /** Runs the tool with its size keys and the given arguments, then checks it wrote one file a map. */
  final void runWriter(WorkloadContext ctx, Path dir, Tool writer, String totalBytesKey,
      String bytesPerMapKey, String... args) throws Exception {
    long perMap = (bytes + maps - 1) / maps;
    ctx.runTool(Phase.PREPARE, tool, writer,
        Map.of(totalBytesKey, Long.toString(perMap * maps), bytesPerMapKey, Long.toString(perMap)),
        args);
    DataFiles.checkFileCount(dir.getFileSystem(ctx.conf()), dir, maps, tool);
  }
}
