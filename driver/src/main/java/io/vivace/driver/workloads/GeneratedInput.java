package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import io.vivace.driver.InputData;
import io.vivace.driver.OutputDigest;
import io.vivace.driver.Phase;
import io.vivace.driver.WorkloadContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Tool;

/**
 * Input written by one of the workloads module's generators ({@code -maps N -seed S AMOUNT OUT},
 * one file per map). The directory name is {@code name-param=value-...}; the checksum is the
 * SHA-256 of the files (the generators are deterministic). Sized in bytes when {@code
 * requestedBytes} is positive (subclasses then say how close the size must be), else in records
 * (points, pages): any non-empty size passes.
 */
abstract class GeneratedInput implements InputData {

  private final String name;
  private final long requestedBytes;
  protected final Map<String, String> params;

  /** {@code params} in order, {@code maps} and {@code seed} among them. */
  GeneratedInput(String name, long requestedBytes, Map<String, String> params) {
    this.name = name;
    this.requestedBytes = requestedBytes;
    this.params = Collections.unmodifiableMap(params);
  }

  @Override
  public final String key() {
    List<String> parts = new ArrayList<>(List.of(name));
    params.forEach((param, value) -> parts.add(param + "=" + value));
    return String.join("-", parts);
  }

  @Override
  public final Map<String, String> params() {
    return params;
  }

  @Override
  public final long requestedBytes() {
    return requestedBytes;
  }

  @Override
  public String sizeMismatch(long actualBytes) {
    return actualBytes > 0 ? null : name + " data: no bytes written";
  }

  /** Runs {@code generator} (named {@code tool}) for {@code amount}; checks it wrote a file a map. */
  final void runGenerator(WorkloadContext ctx, Path dir, String tool, Tool generator,
      Map<String, String> settings, String amount) throws Exception {
    ctx.runTool(Phase.PREPARE, tool, generator, settings, "-maps", params.get("maps"), "-seed",
        params.get("seed"), amount, dir.toString());
    DataFiles.checkFileCount(dir.getFileSystem(ctx.conf()), dir,
        Integer.parseInt(params.get("maps")), tool);
  }

  @Override
  public Fingerprint fingerprint(WorkloadContext ctx, Path dir) throws Exception {
    return new Fingerprint(OutputDigest.ofBytes(dir.getFileSystem(ctx.conf()), dir), Map.of());
  }
}
