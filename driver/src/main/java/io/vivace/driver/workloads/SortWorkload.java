package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import io.vivace.driver.InputData;
import io.vivace.driver.Param;
import io.vivace.driver.Params;
import io.vivace.driver.Phase;
import io.vivace.driver.Validation;
import io.vivace.driver.WorkloadContext;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.examples.Sort;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.SortValidator;

/**
 * Apache's Sort of RandomWriter's {@code bytes} in {@code maps} files with {@code reduces}
 * reducers; validated by Apache's SortValidator (its record-statistics check: the same number of
 * records, bytes and checksum in and out, each record in its partition) and the driver's check
 * that every part is in key order. The output checksum is over the records of the part files in
 * order ({@link SortOutputScan}), the same across engines for the same input and reducer count.
 */
final class SortWorkload extends OutputWorkload {

  static final String NAME = "sort";
  static final String DESCRIPTION =
      "randomwriter and Sort, checked by Apache's SortValidator";
  static final List<Param> PARAMS = List.of(SharedParams.bytes("random records"),
      SharedParams.maps(), SharedParams.reduces());

  SortWorkload(Params params) {
    super(NAME, params, "sort-out");
  }

  @Override
  public InputData input() {
    return new RandomWriterInput(params.get("bytes"), params.intValue("maps"));
  }

  @Override
  public void run(WorkloadContext ctx) throws Exception {
    Path output = output(ctx);
    ctx.runTool(Phase.RUN, "sort", new Sort<>(), Map.of(),
        "-r", Long.toString(params.get("reduces")), ctx.data().path().toString(),
        output.toString());
  }

  /** SortValidator throws when the output does not match; the driver reports its message. */
  @Override
  public Validation validate(WorkloadContext ctx) throws Exception {
    Path output = output(ctx);
    ctx.runTool(Phase.VALIDATE, "sortvalidator", new SortValidator(), Map.of(),
        "-sortInput", ctx.data().path().toString(), "-sortOutput", output.toString());
    long outputBytes = DataFiles.bytes(output.getFileSystem(ctx.conf()), output);
    SortOutputScan scan = SortOutputScan.of(ctx.conf(), output);
    if (scan.misorder() != null) {
      return Validation.failed("sort: output out of order: " + scan.misorder(), scan.digest(),
          outputBytes);
    }
    return Validation.passed("sortvalidator: records, bytes and checksum of the output equal the"
        + " input's, every record in its partition; each of the " + scan.records()
        + " records in key order", scan.digest(), outputBytes);
  }
}
