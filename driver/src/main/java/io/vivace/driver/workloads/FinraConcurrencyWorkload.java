package io.vivace.driver.workloads;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.vivace.driver.InputData;
import io.vivace.driver.OutputDigest;
import io.vivace.driver.Param;
import io.vivace.driver.Params;
import io.vivace.driver.Phase;
import io.vivace.driver.Validation;
import io.vivace.driver.WorkloadContext;
import io.vivace.workloads.finra.FinraConcurrency;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The FINRA study's concurrency test ({@link FinraConcurrency}): the query {@code isolated} times
 * alone (the isolated time is their median), then {@code streams} streams of {@code queries}
 * queries each with {@code think_pct}% of the isolated time between them. Puts the isolated time, the mean time under concurrency and their ratio into
 * {@code results.finra}; every query's output must equal the single-process filter's.
 */
final class FinraConcurrencyWorkload extends ParamsWorkload {

  static final String NAME = "finra-concurrency";
  static final String DESCRIPTION = "the FINRA query alone, then N streams of queries with think"
      + " time; results.finra: isolated and mean concurrent time and their ratio";
  static final List<Param> PARAMS = List.of(SharedParams.bytes("share-order rows"),
      SharedParams.maps(), SharedParams.seed(),
      Param.integer("isolated", 3, 1, "",
          "runs of the query alone (the isolated time: their median)"),
      Param.integer("streams", 5, 1, "", "concurrent query streams (the study: 1 and 5)"),
      Param.integer("queries", 2, 1, "", "queries per stream"),
      Param.integer("think_pct", 10, 0, "%", "think time between a stream's queries, % of the"
          + " isolated query time (the study: 10)"));

  private Path outputs;

  FinraConcurrencyWorkload(Params params) {
    super(NAME, params);
  }

  @Override
  public InputData input() {
    return FinraQueryWorkload.finraInput(params);
  }

  @Override
  public void run(WorkloadContext ctx) throws Exception {
    outputs = ctx.workPath("finra-concurrency-out");
    java.nio.file.Path report = Files.createTempFile("finra-concurrency", ".json");
    try {
      ctx.runTool(Phase.RUN, "finraconcurrency", new FinraConcurrency(), Map.of(),
          "-isolated", Long.toString(params.get("isolated")),
          "-streams", Long.toString(params.get("streams")),
          "-queries", Long.toString(params.get("queries")),
          "-think-pct", Long.toString(params.get("think_pct")),
          "-json", report.toString(), ctx.data().path().toString(), outputs.toString());
      ctx.putResult("finra", new ObjectMapper().readValue(report.toFile(), Map.class));
      LustreResults.put(ctx, outputs);
    } finally {
      Files.deleteIfExists(report);
    }
  }

  @Override
  public Validation validate(WorkloadContext ctx) throws Exception {
    Path isolated = new Path(outputs, "isolated-0");
    Validation reference = FinraQueryWorkload.againstReference(ctx, isolated);
    if (reference.status() != Validation.Status.PASSED) {
      return reference;
    }
    FileSystem fs = outputs.getFileSystem(ctx.conf());
    FileStatus[] queries = fs.listStatus(outputs);
    for (FileStatus query : queries) {
      String digest = OutputDigest.ofBytes(fs, query.getPath());
      if (!digest.equals(reference.outputChecksum())) {
        return Validation.failed("finraconcurrency: " + query.getPath().getName()
            + " differs from the isolated query's output", reference.outputChecksum(),
            reference.outputBytes());
      }
    }
    long expected = params.get("isolated") + params.get("streams") * params.get("queries");
    if (queries.length != expected) {
      return Validation.failed("finraconcurrency: " + queries.length + " query outputs, expected "
          + expected, reference.outputChecksum(), reference.outputBytes());
    }
    return Validation.passed(reference.detail() + "; the same in all " + queries.length
        + " queries", reference.outputChecksum(), reference.outputBytes());
  }
}
