package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import io.vivace.driver.InputData;
import io.vivace.driver.OutputDigest;
import io.vivace.driver.Param;
import io.vivace.driver.Params;
import io.vivace.driver.Phase;
import io.vivace.driver.Validation;
import io.vivace.driver.WorkloadContext;
import io.vivace.workloads.finra.FinraQuery;
import io.vivace.workloads.finra.FinraReference;
import io.vivace.workloads.finra.QueryFilter;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The FINRA study's query (symbol 'XLP' over the generated trading day, sorted by time) once, on
 * FinraGen's {@code bytes} in {@code maps} files; validated against the single-process filter
 * ({@link FinraReference}). One part file: the output checksum is the same on every engine.
 */
final class FinraQueryWorkload extends ParamsWorkload {

  static final String NAME = "finra-query";
  static final String DESCRIPTION = "FINRA audit-trail query ('XLP' over the day, sorted by"
      + " time) on the generated share-order table, checked against a single-process filter";
  static final List<Param> PARAMS =
      List.of(SharedParams.bytes("share-order rows"), SharedParams.maps(), SharedParams.seed());

  private Path output;

  FinraQueryWorkload(Params params) {
    super(NAME, params);
  }

  /** FinraGen's rows for the params {@code bytes}, {@code maps} and {@code seed}. */
  static InputData finraInput(Params params) {
    return new FinraInput(params.get("bytes"), params.intValue("maps"), params.get("seed"));
  }

  @Override
  public InputData input() {
    return finraInput(params);
  }

  @Override
  public void run(WorkloadContext ctx) throws Exception {
    output = ctx.workPath("finra-query-out");
    ctx.runTool(Phase.RUN, "finraquery", new FinraQuery(), Map.of(),
        ctx.data().path().toString(), output.toString());
    LustreResults.put(ctx, output);
  }

  @Override
  public Validation validate(WorkloadContext ctx) throws Exception {
    return againstReference(ctx, output);
  }

  /** Passed when the lines under {@code output} are the reference filter's for the study query. */
  static Validation againstReference(WorkloadContext ctx, Path output) throws Exception {
    FileSystem fs = output.getFileSystem(ctx.conf());
    long outputBytes = DataFiles.bytes(fs, output);
    String digest = OutputDigest.ofBytes(fs, output);
    Path input = ctx.data().path();
    List<String> expected = FinraReference.select(input.getFileSystem(ctx.conf()), input,
        QueryFilter.study());
    List<String> actual = TextParts.lines(fs, output);
    if (!actual.equals(expected)) {
      return Validation.failed("finraquery: " + actual.size() + " lines, the single-process"
          + " filter's " + expected.size() + (actual.size() == expected.size()
          ? " (same count, different lines or order)" : ""), digest, outputBytes);
    }
    return Validation.passed("finraquery: the " + expected.size() + " rows of the single-process"
        + " filter, in time order", digest, outputBytes);
  }
}
