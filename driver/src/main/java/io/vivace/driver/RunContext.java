package io.vivace.driver;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * One run's state as the driver and its workload share it: the frameworks of the phases, the work
 * root and what was written under it, the recorded jobs, the run phase's wall-clock window and the
 * workload's results.
 */
final class RunContext implements WorkloadContext {

  private final Configuration conf;
  private final Map<Phase, String> frameworks;
  private final Path workRoot;
  private final Path externalOutput;
  private final boolean workRootExisted;
  private final Set<Path> workPaths = new LinkedHashSet<>();
  private final List<PhaseJob> jobs = new ArrayList<>();
  private final Map<String, Object> results = new LinkedHashMap<>();
  private PreparedData data;
  private Long runStartedMs;
  private Long runFinishedMs;

  /** {@code externalOutput}: the {@code --output} to validate; null when the run writes its own. */
  RunContext(Configuration conf, Map<Phase, String> frameworks, Path workRoot,
      Path externalOutput) {
    this.conf = conf;
    this.frameworks = new EnumMap<>(frameworks);
    this.workRoot = workRoot;
    this.externalOutput = externalOutput;
    this.workRootExisted = existsOrUnknown(conf, workRoot);
  }

  /** Whether the work root exists; true when that cannot be told, so that it is never removed. */
  private static boolean existsOrUnknown(Configuration conf, Path dir) {
    try {
      return dir.getFileSystem(conf).exists(dir);
    } catch (IOException e) {
      return true;
    }
  }

  @Override
  public Configuration conf() {
    return conf;
  }

  @Override
  public PreparedData data() {
    return data;
  }

  void setData(PreparedData data) {
    this.data = data;
  }

  @Override
  public Path workPath(String name) throws IOException {
    Path path = new Path(workRoot, name);
    FileSystem fs = path.getFileSystem(conf);
    if (workPaths.add(path) && fs.exists(path)) {
      progress("removing " + path + ", left by an earlier run");
      fs.delete(path, true);
    }
    return path;
  }

  @Override
  public Path outputPath(String name) throws IOException {
    return externalOutput != null ? externalOutput : workPath(name);
  }

  @Override
  public List<RecordedJob> runTool(Phase phase, String what, Tool tool,
      Map<String, String> settings, String... args) throws Exception {
    String framework = frameworks.get(phase);
    Configuration toolConf = new Configuration(conf);
    ClientPolling.equalise(toolConf);
    settings.forEach(toolConf::set);
    JobRecorder.recordOn(toolConf, framework);
    progress(phase.label() + ": " + what + " on " + framework);
    JobRecorder.drain(); // jobs submitted outside runTool belong to no phase
    long startMs = System.currentTimeMillis();
    if (phase == Phase.RUN && runStartedMs == null) {
      runStartedMs = startMs;
    }
    int exitCode;
    List<RecordedJob> submitted;
    try {
      exitCode = ToolRunner.run(toolConf, tool, args);
    } finally {
      long endMs = System.currentTimeMillis();
      if (phase == Phase.RUN) {
        runFinishedMs = endMs;
      }
      submitted = JobRecorder.drain();
      for (RecordedJob job : submitted) {
        jobs.add(new PhaseJob(phase, job));
        progress("  " + describe(job));
      }
    }
    if (exitCode != 0) {
      throw new PhaseFailedException(what + " on " + framework + " exited with " + exitCode
          + failedJobs(submitted));
    }
    return submitted;
  }

  private static String describe(RecordedJob job) {
    JobStatus status = statusOrNull(job);
    String state = status == null ? "state unknown" : status.getState().name();
    String name = status == null ? "" : " " + status.getJobName();
    Long doneMs = job.doneMs();
    String took =
        doneMs == null ? "" : String.format(" in %.1f s", (doneMs - job.submitMs()) / 1000.0);
    return job.id() + name + " " + state + took;
  }

  private static String failedJobs(List<RecordedJob> submitted) {
    StringBuilder out = new StringBuilder();
    for (RecordedJob job : submitted) {
      JobStatus status = statusOrNull(job);
      if (status != null && status.getState() != JobStatus.State.SUCCEEDED) {
        out.append("; ").append(job.id()).append(' ').append(status.getState());
        String info = status.getFailureInfo();
        if (info != null && !info.isBlank()) {
          out.append(": ").append(info.strip());
        }
      }
    }
    return out.toString();
  }

  private static JobStatus statusOrNull(RecordedJob job) {
    try {
      return job.status();
    } catch (Exception e) {
      return null;
    }
  }

  @Override
  public void putResult(String name, Object value) {
    results.put(name, value);
  }

  @Override
  public void progress(String message) {
    Progress.line(message);
  }

  List<PhaseJob> jobs() {
    return Collections.unmodifiableList(jobs);
  }

  Map<String, Object> results() {
    return Collections.unmodifiableMap(results);
  }

  /** When the run phase's first job started, as the driver saw it; null if it never ran. */
  Long runStartedMs() {
    return runStartedMs;
  }

  Long runFinishedMs() {
    return runFinishedMs;
  }

  /** Removes what this run wrote under the work root, and the root if this run created it. */
  void removeOutputs() {
    for (Path path : workPaths) {
      try {
        path.getFileSystem(conf).delete(path, true);
      } catch (IOException e) {
        progress("could not remove " + path + ": " + e.getMessage());
      }
    }
    if (!workRootExisted) {
      try {
        FileSystem fs = workRoot.getFileSystem(conf);
        if (fs.exists(workRoot) && fs.listStatus(workRoot).length == 0) {
          fs.delete(workRoot, false);
        }
      } catch (IOException e) {
        progress("could not remove " + workRoot + ": " + e.getMessage());
      }
    }
  }
}
