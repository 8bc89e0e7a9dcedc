package io.vivace.driver.workloads;

import io.vivace.driver.InputData;
import io.vivace.driver.Param;
import io.vivace.driver.Params;
import io.vivace.driver.Phase;
import io.vivace.driver.UsageException;
import io.vivace.driver.Validation;
import io.vivace.driver.WorkloadContext;
import io.vivace.workloads.swim.PoolLayout;
import io.vivace.workloads.swim.ReplayPlan;
import io.vivace.workloads.swim.ReplaySettings;
import io.vivace.workloads.swim.Scale;
import io.vivace.workloads.swim.SynthesisedJob;
import io.vivace.workloads.swim.TraceJob;
import io.vivace.workloads.swim.TraceReader;
import java.io.IOException;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * A SWIM trace replayed open loop ({@link SwimReplay}) over a pool of input partitions written
 * once ({@link SwimPoolInput}); each trace job synthesised by SWIM's rules
 * ({@code io.vivace.workloads.swim}). The trace is read and the jobs are planned before anything
 * runs, so a missing or malformed trace, or a pool too small for the selected jobs, is a usage
 * error. Validation: every job succeeded. {@code results.swim} holds each job's synthesis and
 * outcome, and size histograms of the whole trace at the replay's scale.
 */
final class SwimWorkload extends ParamsWorkload {

  static final String NAME = "swim";
  static final String TRACES_URL = "https://github.com/SWIMProjectUCB/SWIM (folder workloadSuite)";
  static final String DESCRIPTION =
      "a SWIM trace replayed open loop at its submission times (SWIM's job synthesis)";
  static final List<Param> PARAMS = List.of(
      Param.requiredText("trace", "the SWIM trace file (tab-separated: name, submit s, gap s,"
          + " input, shuffle, output bytes; `vivace lab swim` finds FB-2010; the public traces"
          + " are in " + TRACES_URL + ")"),
      Param.integer("first_job", 0, 0, "", "trace position of the first job replayed"),
      Param.integer("jobs", 0, 0, "", "at most this many jobs (0: no limit)"),
      Param.integer("window_s", 0, 0, "s",
          "only jobs within this many seconds of trace time (0: no window)"),
      Param.integer("sample_every", 1, 1, "",
          "of the selected jobs, replay only those whose trace position is a multiple of this,"
              + " at their trace times (1: all)"),
      Param.integer("cluster_nodes", 1, 1, "",
          "machines replaying the trace (integer scale; SWIM's reducer cap)"),
      Param.integer("trace_nodes", 3000, 1, "", "machines of the traced cluster (integer scale)"),
      Param.number("scale_factor", 0, 0, "",
          "sizes times this factor instead of cluster_nodes/trace_nodes (0: integer mode)"),
      Param.number("gap_compression", 1, 0.001, "",
          "trace gaps divided by this (1: the trace's pace)"),
      Param.size("bytes_per_reduce", 64L << 20, 1, "shuffle + output bytes per reducer"),
      Param.integer("pool_partitions", 64, 1, "",
          "input partitions in the pool (each job reads consecutive ones)"),
      Param.size("block_size", 4L << 20, PoolLayout.MIN_BLOCK_SIZE,
          "bytes of one pool partition file (one block, one split)"),
      Param.integer("seed", 1, 0, "",
          "seed of every random choice (pool, partitions, records)"));

  private List<TraceJob> trace;
  private ReplaySettings settings;
  private List<SynthesisedJob> jobs;
  private SwimReplay replay;

  SwimWorkload(Params params) {
    super(NAME, params);
  }

  /** Reads the trace and plans the replay: every problem with the params is found before the run. */
  @Override
  public void checkRoots(Configuration conf, Path dataRoot, Path workRoot) throws UsageException {
    String tracePath = params.text("trace").strip();
    try {
      trace = TraceReader.read(Paths.get(tracePath));
    } catch (IOException | IllegalArgumentException e) {
      throw new UsageException("cannot use trace '" + tracePath + "': " + e.getMessage()
          + " (the public traces are in " + TRACES_URL + ")");
    }
    int first = params.intValue("first_job");
    if (first >= trace.size()) {
      throw new UsageException("param first_job=" + first + " but the trace " + tracePath
          + " holds " + trace.size() + " jobs");
    }
    try {
      settings = new ReplaySettings(scale(), params.intValue("cluster_nodes"),
          params.number("gap_compression"), params.get("bytes_per_reduce"),
          new PoolLayout(params.intValue("pool_partitions"), params.get("block_size")),
          params.get("seed"));
      jobs = ReplayPlan.sample(ReplayPlan.synthesise(ReplayPlan.select(trace, first,
          params.intValue("jobs"), params.get("window_s")), first, settings),
          params.intValue("sample_every"));
    } catch (IllegalArgumentException e) {
      throw new UsageException("workload swim: " + e.getMessage());
    }
    if (jobs.isEmpty()) {
      throw new UsageException("workload swim: no selected job's trace position is a multiple of"
          + " sample_every=" + params.intValue("sample_every"));
    }
  }

  /** SWIM's integer mode unless scale_factor is above 0. */
  private Scale scale() {
    double factor = params.number("scale_factor");
    if (factor == 0) {
      return Scale.nodes(params.get("cluster_nodes"), params.get("trace_nodes"));
    }
    return Scale.factor(factor);
  }

  @Override
  public InputData input() {
    return new SwimPoolInput(settings.pool(), settings.seed());
  }

  @Override
  public void run(WorkloadContext ctx) throws Exception {
    ctx.progress("swim: " + jobs.size() + " jobs of " + params.text("trace") + " at scale "
        + settings.scale() + ", gaps / " + settings.gapCompression() + ", last due "
        + jobs.get(jobs.size() - 1).dueOffsetMs() / 1000.0 + " s after the first");
    replay = new SwimReplay(jobs, settings, ctx.data().path(), ctx.workPath("swim-out"),
        ctx::progress);
    try {
      ctx.runTool(Phase.RUN, "swim replay of " + jobs.size() + " jobs", replay, Map.of());
    } finally {
      ctx.putResult("swim", results());
    }
  }

  private Map<String, Object> results() {
    Map<String, Object> results = new LinkedHashMap<>();
    results.put("trace", params.text("trace"));
    results.put("trace_jobs", trace.size());
    results.put("sample_every", params.intValue("sample_every"));
    results.put("scale", settings.scale().toString());
    results.put("records_per_partition", settings.pool().recordsPerPartition());
    results.put("partition_usable_bytes", settings.pool().usableBytes());
    results.put("trace_size_histograms", SizeHistograms.of(trace, settings.scale()));
    results.put("jobs", replay == null ? List.of() : replay.outcomes());
    return results;
  }

  @Override
  public Validation validate(WorkloadContext ctx) {
    StringBuilder failures = new StringBuilder();
    int failed = 0;
    for (Map<String, Object> outcome : replay.outcomes()) {
      if (!"SUCCEEDED".equals(outcome.get("status"))) {
        failed++;
        if (failed <= 5) {
          failures.append("; job ").append(outcome.get("index")).append(' ')
              .append(outcome.get("job_id")).append(": ").append(outcome.get("failure"));
        }
      }
    }
    if (failed > 0) {
      return Validation.failed(failed + " of " + jobs.size() + " replayed jobs failed" + failures,
          null, null);
    }
    return Validation.passed("all " + jobs.size() + " replayed jobs succeeded", null, null);
  }
}
