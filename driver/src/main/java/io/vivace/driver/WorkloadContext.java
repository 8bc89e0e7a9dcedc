package io.vivace.driver;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Tool;

/** What a workload can use while the driver runs it. */
public interface WorkloadContext {

  /** The driver's configuration (generic options applied); for file system access. */
  Configuration conf();

  /** The prepared input; null before the prepare phase and for workloads without input. */
  PreparedData data();

  /**
   * {@code name} under the work root, for this run's output; removed at the end of the run
   * unless {@code --keep-output}, and now if an earlier run left it behind.
   */
  Path workPath(String name) throws IOException;

  /**
   * The run's output directory: {@code --output} when the driver validates an output another
   * system wrote (never removed), else {@link #workPath} of {@code name}.
   */
  Path outputPath(String name) throws IOException;

  /**
   * Runs {@code tool} in this JVM through {@code ToolRunner} on the framework of {@code phase},
   * with the driver's configuration plus {@code settings}, and records the jobs it submits.
   *
   * @return the jobs it submitted
   * @throws PhaseFailedException if it returned non-zero
   */
  List<RecordedJob> runTool(Phase phase, String what, Tool tool, Map<String, String> settings,
      String... args) throws Exception;

  /** A workload-specific figure for the record's {@code results}. */
  void putResult(String name, Object value);

  /** One line of progress on stderr. */
  void progress(String message);
}
