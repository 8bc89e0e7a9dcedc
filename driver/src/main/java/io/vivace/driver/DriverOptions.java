package io.vivace.driver;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The bench driver's own command line, after Hadoop's generic options. */
record DriverOptions(String workload, Path record, String dataRoot, String workRoot,
    Map<String, String> params, String prepareFramework, String validateFramework,
    boolean keepOutput, Set<Phase> phases, String output, String seedDataRoot, boolean help,
    boolean listWorkloads) {

  static final String DEFAULT_PREPARE_FRAMEWORK = "vivace";
  static final String DEFAULT_VALIDATE_FRAMEWORK = "local";

  static final String USAGE = String.join("\n",
      "Usage: BenchDriver [generic options] --workload NAME --record FILE --data-root URI",
      "         --work-root URI [--param KEY=VALUE]... [--prepare-framework "
          + DEFAULT_PREPARE_FRAMEWORK + "]",
      "         [--validate-framework " + DEFAULT_VALIDATE_FRAMEWORK + "] [--keep-output]",
      "         [--phases prepare,run,validate] [--output URI] [--seed-data-root URI]",
      "   or: BenchDriver --list-workloads",
      "Runs one workload (prepare, run, validate) and writes its run record (docs/run-record.md)",
      "to FILE. The run phase uses mapreduce.framework.name; input is generated under the data",
      "root and reused; outputs go under the work root and are removed unless --keep-output.",
      "--phases runs only the phases named (without prepare, the input must already be there);",
      "--output validates an output another system wrote (with validate, without run).",
      "--seed-data-root: input prepared there (say on file://) is copied, not generated anew.",
      "Generic options (-D key=value, -conf FILE, -fs URI) come first.",
      "Workloads: " + String.join(", ", io.vivace.driver.workloads.Workloads.names()) + ";",
      "--list-workloads prints them with their params (types, defaults, minimums) as JSON.",
      "Exit status: 0 succeeded, 1 failed (record written), 2 bad usage (no record).");

  static DriverOptions parse(String[] args) throws UsageException {
    String workload = null;
    Path record = null;
    String dataRoot = null;
    String workRoot = null;
    Map<String, String> params = new LinkedHashMap<>();
    String prepareFramework = DEFAULT_PREPARE_FRAMEWORK;
    String validateFramework = DEFAULT_VALIDATE_FRAMEWORK;
    boolean keepOutput = false;
    Set<Phase> phases = EnumSet.allOf(Phase.class);
    String output = null;
    String seedDataRoot = null;
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      switch (option) {
        case "--workload" -> workload = value(args, ++i, option);
        case "--record" -> record = Paths.get(value(args, ++i, option));
        case "--data-root" -> dataRoot = value(args, ++i, option);
        case "--work-root" -> workRoot = value(args, ++i, option);
        case "--param" -> addParam(params, value(args, ++i, option));
        case "--prepare-framework" -> prepareFramework = value(args, ++i, option);
        case "--validate-framework" -> validateFramework = value(args, ++i, option);
        case "--keep-output" -> keepOutput = true;
        case "--phases" -> phases = phases(value(args, ++i, option));
        case "--output" -> output = value(args, ++i, option);
        case "--seed-data-root" -> seedDataRoot = value(args, ++i, option);
        case "--help", "-h" -> {
          return new DriverOptions(null, null, null, null, Map.of(), null, null, false,
              Set.of(), null, null, true, false);
        }
        case "--list-workloads" -> {
          return new DriverOptions(null, null, null, null, Map.of(), null, null, false,
              Set.of(), null, null, false, true);
        }
        default -> throw new UsageException("unknown option: " + option
            + (option.startsWith("-D") || option.equals("-conf")
                ? " (generic options go before the driver's own)" : ""));
      }
    }
    require(workload, "--workload");
    require(record, "--record");
    require(dataRoot, "--data-root");
    require(workRoot, "--work-root");
    if (output != null
        && (!phases.contains(Phase.VALIDATE) || phases.contains(Phase.RUN))) {
      throw new UsageException("--output names an output to validate: it needs --phases with"
          + " validate and without run");
    }
    if (output == null && phases.contains(Phase.VALIDATE) && !phases.contains(Phase.RUN)) {
      throw new UsageException("--phases validate without run needs --output, the output to"
          + " validate");
    }
    return new DriverOptions(workload, record, dataRoot, workRoot,
        Collections.unmodifiableMap(params), prepareFramework, validateFramework, keepOutput,
        Collections.unmodifiableSet(phases), output, seedDataRoot, false, false);
  }

  /** A comma-separated list of phase names, e.g. {@code prepare,validate}. */
  private static Set<Phase> phases(String list) throws UsageException {
    Set<Phase> phases = EnumSet.noneOf(Phase.class);
    for (String name : list.split(",", -1)) {
      Phase phase = Phase.byLabel(name.strip().toLowerCase(Locale.ROOT));
      if (phase == null) {
        throw new UsageException("unknown phase '" + name + "' in --phases " + list
            + " (phases: prepare, run, validate)");
      }
      if (!phases.add(phase)) {
        throw new UsageException("phase " + phase.label() + " given twice in --phases " + list);
      }
    }
    return phases;
  }

  private static String value(String[] args, int i, String option) throws UsageException {
    if (i >= args.length || args[i].isEmpty()) {
      throw new UsageException(option + " needs a value");
    }
    return args[i];
  }

  private static void addParam(Map<String, String> params, String keyValue)
      throws UsageException {
    int eq = keyValue.indexOf('=');
    if (eq <= 0) {
      throw new UsageException("malformed --param '" + keyValue + "' (KEY=VALUE)");
    }
    String key = keyValue.substring(0, eq);
    if (params.put(key, keyValue.substring(eq + 1)) != null) {
      throw new UsageException("param " + key + " given twice");
    }
  }

  private static void require(Object value, String option) throws UsageException {
    if (value == null) {
      throw new UsageException(option + " is required");
    }
  }
}
