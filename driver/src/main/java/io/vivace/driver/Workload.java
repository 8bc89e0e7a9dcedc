package io.vivace.driver;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * One workload the driver runs: its input (generated or reused in the prepare phase), its timed
 * jobs (run) and the check of their output (validate). An instance serves one run, so it may keep
 * what {@link #run} produced for {@link #validate}. Implementations are in {@code
 * io.vivace.driver.workloads}; they call Apache's and Vivace's programs unmodified through {@link
 * WorkloadContext#runTool}.
 */
public interface Workload {

  String name();

  Params params();

  /** The input the prepare phase generates or finds already generated; null if none. */
  default InputData input() {
    return null;
  }

  /**
   * Whether the run writes an output directory ({@link WorkloadContext#outputPath}) that validate
   * checks, so that {@code --output} can name one another system wrote.
   */
  default boolean writesOutput() {
    return false;
  }

  /**
   * Rejects roots (and params that need more than a range check) this workload cannot use; called
   * before anything runs.
   */
  default void checkRoots(Configuration conf, Path dataRoot, Path workRoot) throws UsageException {
  }

  /** The timed jobs, on the framework under test; reads {@link WorkloadContext#data()}. */
  void run(WorkloadContext ctx) throws Exception;

  /** Checks the run's output; runs only after {@link #run} succeeded. */
  Validation validate(WorkloadContext ctx) throws Exception;
}
