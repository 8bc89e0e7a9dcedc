package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import io.vivace.driver.InputData;
import io.vivace.driver.OutputDigest;
import io.vivace.driver.Param;
import io.vivace.driver.Params;
import io.vivace.driver.Phase;
import io.vivace.driver.Validation;
import io.vivace.driver.WorkloadContext;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.examples.terasort.TeraSort;
import org.apache.hadoop.examples.terasort.TeraValidate;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * TeraSort of TeraGen's {@code rows} (in {@code maps} files) with {@code reduces} reducers;
 * validated by TeraValidate: rows in order within and across the part files, and the checksum of
 * the output equal to the input's. The output checksum is the SHA-256 of the part files one after
 * the other, i.e. of the globally sorted rows: the same for every engine and reducer count.
 */
final class TeraSortWorkload extends OutputWorkload {

  static final String NAME = "terasort";
  static final String DESCRIPTION = "TeraGen, TeraSort, TeraValidate";
  static final List<Param> PARAMS = List.of(
      Param.integer("rows", 100_000, 1, "rows", "100-byte rows TeraGen writes"),
      SharedParams.maps(), SharedParams.reduces());

  TeraSortWorkload(Params params) {
    super(NAME, params, "terasort-out");
  }

  @Override
  public InputData input() {
    return new TeraGenInput(params.get("rows"), params.intValue("maps"));
  }

  @Override
  public void run(WorkloadContext ctx) throws Exception {
    Path output = output(ctx);
    ctx.runTool(Phase.RUN, "terasort", new TeraSort(),
        Map.of(MRJobConfig.NUM_REDUCES, Long.toString(params.get("reduces"))),
        ctx.data().path().toString(), output.toString());
  }

  @Override
  public Validation validate(WorkloadContext ctx) throws Exception {
    Path output = output(ctx);
    Path report = ctx.workPath("teravalidate");
    ctx.runTool(Phase.VALIDATE, "teravalidate", new TeraValidate(), Map.of(), output.toString(),
        report.toString());
    FileSystem fs = output.getFileSystem(ctx.conf());
    long outputBytes = DataFiles.bytes(fs, output);
    String digest = OutputDigest.ofBytes(fs, output);
    List<String> lines = TextParts.lines(fs, report);
    List<String> errors = lines.stream().filter(line -> line.startsWith("error\t")).toList();
    if (!errors.isEmpty()) {
      return Validation.failed("teravalidate: " + errors.get(0).substring("error\t".length())
          + (errors.size() > 1 ? " (and " + (errors.size() - 1) + " more errors)" : ""),
          digest, outputBytes);
    }
    String checksum = lines.stream().filter(line -> line.startsWith("checksum\t"))
        .map(line -> line.substring("checksum\t".length()).trim()).findFirst().orElse(null);
    String inputChecksum = ctx.data().checksum();
    if (checksum == null) {
      return Validation.failed("teravalidate wrote no checksum: " + lines, digest, outputBytes);
    }
    if (!(TeraGenInput.CHECKSUM_PREFIX + checksum).equals(inputChecksum)) {
      return Validation.failed("teravalidate: the output's checksum " + checksum
          + " differs from the input's " + inputChecksum, digest, outputBytes);
    }
    long rows = params.get("rows");
    if (outputBytes != rows * TeraGenInput.ROW_BYTES) {
      return Validation.failed("terasort wrote " + outputBytes + " bytes, expected " + rows
          + " rows of " + TeraGenInput.ROW_BYTES, digest, outputBytes);
    }
    return Validation.passed(
        "teravalidate: " + rows + " rows in order, checksum equals the input's", digest,
        outputBytes);
  }
}
