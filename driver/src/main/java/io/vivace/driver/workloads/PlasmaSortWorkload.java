package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import io.vivace.driver.InputData;
import io.vivace.driver.OutputDigest;
import io.vivace.driver.Param;
import io.vivace.driver.Params;
import io.vivace.driver.Phase;
import io.vivace.driver.Validation;
import io.vivace.driver.WorkloadContext;
import io.vivace.workloads.plasma.PlasmaSort;
import io.vivace.workloads.plasma.PlasmaValidate;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Plasma's sort of PlasmaGen's {@code bytes} (in {@code maps} files) into {@code reduces}
 * partitions (80 by default, as in the study); validated in the driver's process by
 * PlasmaValidate (order within and across the parts, line count and checksum equal to the
 * input's). The whole line is the sort key, so the output checksum (the part files' bytes in
 * order) is the same for every engine and partition count. Reports the driver JVM's CPU seconds
 * of the run phase, per GB of input, in {@code results.cpu}: Plasma's claim was CPU efficiency.
 */
final class PlasmaSortWorkload extends ParamsWorkload {

  static final String NAME = "plasma-sort";
  static final String DESCRIPTION = "Plasma's 100-byte-line sort (65,536 distinct keys) into N"
      + " partitions, checked by plasmavalidate; reports CPU seconds per GB";
  static final List<Param> PARAMS = List.of(SharedParams.bytes("100-byte lines"),
      SharedParams.maps(), Param.integer("reduces", PlasmaSort.DEFAULT_PARTITIONS, 1, "",
          "output partitions (the study: " + PlasmaSort.DEFAULT_PARTITIONS + ")"),
      SharedParams.seed());

  private Path output;

  PlasmaSortWorkload(Params params) {
    super(NAME, params);
  }

  @Override
  public InputData input() {
    return new PlasmaInput(params.get("bytes"), params.intValue("maps"), params.get("seed"));
  }

  @Override
  public void run(WorkloadContext ctx) throws Exception {
    output = ctx.workPath("plasma-sort-out");
    long cpuBefore = processCpuNanos();
    long start = System.nanoTime();
    ctx.runTool(Phase.RUN, "plasmasort", new PlasmaSort(), Map.of(), "-r",
        Long.toString(params.get("reduces")), ctx.data().path().toString(), output.toString());
    ctx.putResult("cpu", cpuFigures(processCpuNanos() - cpuBefore, System.nanoTime() - start,
        ctx.data().actualBytes()));
    LustreResults.put(ctx, output);
  }

  @Override
  public Validation validate(WorkloadContext ctx) throws Exception {
    FileSystem fs = output.getFileSystem(ctx.conf());
    long outputBytes = DataFiles.bytes(fs, output);
    String digest = OutputDigest.ofBytes(fs, output);
    PlasmaValidate validator = new PlasmaValidate();
    validator.setConf(ctx.conf());
    String problem = validator.problem(ctx.data().path(), output);
    if (problem != null) {
      return Validation.failed("plasmavalidate: " + problem, digest, outputBytes);
    }
    return Validation.passed("plasmavalidate: " + ctx.data().figure("lines")
        + " lines in order within and across " + params.get("reduces")
        + " parts, count and checksum equal the input's", digest, outputBytes);
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** CPU and wall seconds of a phase and the CPU seconds per GB (10^9 bytes) of input. */
  static Map<String, Double> cpuFigures(long cpuNanos, long wallNanos, long inputBytes) {
    Map<String, Double> figures = new LinkedHashMap<>();
    double cpu = cpuNanos / 1e9;
    figures.put("cpu_s", cpu);
    figures.put("wall_s", wallNanos / 1e9);
    figures.put("cpu_s_per_gb", cpu / (inputBytes / 1e9));
    return figures;
  }
}
