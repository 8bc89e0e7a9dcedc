package io.vivace.driver;

import io.vivace.driver.workloads.CatalogueJson;
import io.vivace.driver.workloads.Workloads;
import java.io.IOException;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.util.ConfigUtil;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Runs one workload on one engine and writes its run record (docs/run-record.md):
 *
 * <pre>
 * BenchDriver [generic options] --workload NAME --record FILE --data-root URI --work-root URI
 *             [--param KEY=VALUE]... [--prepare-framework vivace] [--validate-framework local]
 *             [--keep-output] [--phases prepare,run,validate] [--output URI]
 *             [--seed-data-root URI]
 * BenchDriver --list-workloads
 * </pre>
 *
 * <p>The engine under test is {@code mapreduce.framework.name} of the configuration (generic
 * options {@code -D}, {@code -conf} apply), the file systems those of the roots. Prepare generates
 * the input under the data root or reuses it ({@link DataStore}), run runs the timed jobs, validate
 * checks their output; each phase's jobs go through the {@link JobRecorder}. {@code --phases}
 * runs some of them only: {@code prepare} alone readies the input for another system, {@code
 * validate} with {@code --output} checks what that system wrote, as the driver checks its own. The record is written
 * whatever happens once the command line is understood. Exit status: 0 when the run succeeded and
 * passed validation, 1 when it did not (the record says why), 2 for a bad command line (the message
 * names the problem; no record). {@code --list-workloads} prints the workloads and their params as
 * JSON ({@link CatalogueJson}).
 */
public final class BenchDriver extends Configured implements Tool {

  static final int SUCCEEDED = 0;
  static final int FAILED = 1;
  static final int BAD_USAGE = 2;
  /** The property source GenericOptionsParser gives {@code -D} values. */
  private static final String COMMAND_LINE = "from command line";

  /** Makes the workload a command line names; tests substitute their own. */
  interface WorkloadCatalog {
    Workload create(String name, Map<String, String> params) throws UsageException;
  }

  static {
    // Hadoop adds mapred-site.xml (which names the engine) to every configuration only once a
    // MapReduce class such as JobConf loads; the driver reads mapreduce.framework.name before.
    ConfigUtil.loadResources();
  }

  private final WorkloadCatalog catalog;

  public BenchDriver() {
    this(Workloads::create);
  }

  BenchDriver(WorkloadCatalog catalog) {
    this.catalog = catalog;
  }

  public static void main(String[] args) throws Exception {
    // Exits explicitly: engines' non-daemon threads would keep the JVM alive.
    System.exit(ToolRunner.run(new Configuration(), new BenchDriver(), args));
  }

  @Override
  public int run(String[] args) {
    Configuration conf = getConf();
    DriverOptions options;
    Workload workload;
    Path dataRoot;
    Path workRoot;
    Path output;
    Path seedDataRoot;
    String framework;
    try {
      options = DriverOptions.parse(args);
      if (options.help()) {
        System.out.println(DriverOptions.USAGE);
        return SUCCEEDED;
      }
      if (options.listWorkloads()) {
        System.out.println(CatalogueJson.text());
        return SUCCEEDED;
      }
      workload = catalog.create(options.workload(), options.params());
      framework = conf.get(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME);
      if (framework.equals(JobRecorder.FRAMEWORK_NAME)) {
        throw new UsageException(MRConfig.FRAMEWORK_NAME + " names the recorder, not an engine");
      }
      dataRoot = qualify(conf, "--data-root", options.dataRoot());
      workRoot = qualify(conf, "--work-root", options.workRoot());
      output = options.output() == null ? null : qualify(conf, "--output", options.output());
      seedDataRoot = options.seedDataRoot() == null ? null
          : qualify(conf, "--seed-data-root", options.seedDataRoot());
      if (output != null && !workload.writesOutput()) {
        throw new UsageException(workload.name() + " writes no output: --output does not apply");
      }
      workload.checkRoots(conf, dataRoot, workRoot);
    } catch (UsageException e) {
      System.err.println("vivace driver: " + e.getMessage());
      System.err.println("(BenchDriver --help shows the usage)");
      return BAD_USAGE;
    }
    Map<Phase, String> frameworks = new EnumMap<>(Phase.class);
    frameworks.put(Phase.PREPARE, options.prepareFramework());
    frameworks.put(Phase.RUN, framework);
    frameworks.put(Phase.VALIDATE, options.validateFramework());
    return execute(conf, options, workload, frameworks, new DataRoots(dataRoot, seedDataRoot),
        workRoot, output);
  }

  private static Path qualify(Configuration conf, String option, String uri)
      throws UsageException {
    try {
      Path path = new Path(uri);
      return path.getFileSystem(conf).makeQualified(path);
    } catch (IOException | IllegalArgumentException e) {
      throw new UsageException("cannot use " + option + " '" + uri + "': " + e.getMessage());
    }
  }

  private int execute(Configuration conf, DriverOptions options, Workload workload,
      Map<Phase, String> frameworks, DataRoots roots, Path workRoot, Path output) {
    Path dataRoot = roots.root();
    Set<Phase> phases = options.phases();
    Progress.line(workload.name() + " " + workload.params().asText() + ": " + phases.stream()
        .map(p -> p.label() + " on " + frameworks.get(p)).collect(Collectors.joining(", "))
        + (output == null ? "" : " of " + output));
    RunContext ctx = new RunContext(conf, frameworks, workRoot, output);
    RunRecord.Failure failure = null;
    Validation validation = null;
    Phase phase = Phase.PREPARE;
    try {
      InputData input = workload.input();
      if (input != null) {
        DataStore store = new DataStore(roots, frameworks.get(Phase.PREPARE), ctx);
        ctx.setData(phases.contains(Phase.PREPARE) ? store.prepare(input) : store.find(input));
      }
      if (phases.contains(Phase.RUN)) {
        phase = Phase.RUN;
        workload.run(ctx);
      }
      if (phases.contains(Phase.VALIDATE)) {
        phase = Phase.VALIDATE;
        validation = workload.validate(ctx);
        if (validation.status() != Validation.Status.PASSED) {
          failure = new RunRecord.Failure(Phase.VALIDATE, validation.detail());
        }
      } else {
        validation = Validation.skipped("not among the phases run");
      }
    } catch (Throwable e) {
      String message = Failures.message(e);
      failure = new RunRecord.Failure(phase, message);
      if (phase == Phase.VALIDATE) {
        validation = Validation.failed(message, null, null);
      }
      if (!(e instanceof PhaseFailedException)) {
        e.printStackTrace();
      }
    }
    if (validation == null) {
      validation = Validation.skipped("the " + failure.phase().label() + " phase failed");
    }
    RunRecord record = new RunRecord(workload.name(), workload.params().asText(),
        frameworks.get(Phase.RUN), conf.get(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY),
        dataRoot.toString(), workRoot.toString(), phases,
        output == null ? null : output.toString(), overrides(conf), runConfiguration(ctx),
        failure == null, failure, ctx.runStartedMs(), ctx.runFinishedMs(), ctx.data(), validation,
        ctx.results(), ctx.jobs());
    int exitCode = failure == null ? SUCCEEDED : FAILED;
    try {
      RunRecordJson.write(record, options.record());
    } catch (IOException | RuntimeException e) {
      Progress.line("could not write the run record " + options.record() + ": " + e);
      exitCode = FAILED;
    }
    if (!options.keepOutput()) {
      ctx.removeOutputs();
    }
    Progress.line((failure == null ? "SUCCEEDED" : "FAILED in " + failure.phase().label() + ": "
        + failure.message()) + "; record in " + options.record().toAbsolutePath());
    return exitCode;
  }

  /** The keys given with -D, with their values. */
  private static Map<String, String> overrides(Configuration conf) {
    Map<String, String> overrides = new TreeMap<>();
    for (Map.Entry<String, String> entry : conf) {
      String[] sources = conf.getPropertySources(entry.getKey());
      if (sources != null && Arrays.asList(sources).contains(COMMAND_LINE)) {
        overrides.put(entry.getKey(), conf.get(entry.getKey()));
      }
    }
    return overrides;
  }

  /** The configuration of the run phase's first job, as submitted. */
  private static SortedMap<String, String> runConfiguration(RunContext ctx) {
    return ctx.jobs().stream()
        .filter(job -> job.phase() == Phase.RUN && job.job().configuration() != null)
        .map(job -> job.job().configuration().values())
        .findFirst().orElse(null);
  }
}
