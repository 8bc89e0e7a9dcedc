package io.vivace.driver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;

/** Runs the bench driver in this JVM, as its main does, and reads back what it wrote. */
final class DriverRun {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The exit code, the driver's own stderr lines and the record (null when none was written). */
  record Result(int exitCode, String stderr, JsonNode record) {

    String describe() {
      return "exit " + exitCode + "\n" + stderr;
    }
  }

  private DriverRun() {}

  /**
   * A configuration like a user's, with everything Hadoop writes besides job output (staging,
   * local dirs, Vivace's history) under {@code scratch}. LocalJobRunner does not derive its staging
   * root from hadoop.tmp.dir, so that is set as well.
   */
  static Configuration conf(Path scratch) {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    String dir = scratch.toAbsolutePath().toString();
    conf.set("hadoop.tmp.dir", dir);
    conf.set("mapreduce.jobtracker.staging.root.dir", dir + "/staging");
    conf.set("mapreduce.cluster.local.dir", dir + "/local");
    return conf;
  }

  /** {@code ToolRunner.run(conf, driver, args)}, capturing stderr (it is echoed, too). */
  static Result run(Configuration conf, BenchDriver driver, Path recordFile, String... args)
      throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream original = System.err;
    int exitCode;
    try (PrintStream both = new PrintStream(new TeeStream(original, captured), true,
        StandardCharsets.UTF_8)) {
      System.setErr(both);
      exitCode = ToolRunner.run(new Configuration(conf), driver, args);
    } finally {
      System.setErr(original);
    }
    return new Result(exitCode, captured.toString(StandardCharsets.UTF_8), readJson(recordFile));
  }

  /** The run record in {@code file}; null when none was written. */
  static JsonNode readJson(Path file) throws IOException {
    return Files.exists(file) ? JSON.readTree(file.toFile()) : null;
  }

  /** The driver's arguments for one workload run; extra ones (params) appended. */
  static String[] args(String workload, Path recordFile, Path dataRoot, Path workRoot,
      String... extra) {
    List<String> args = new ArrayList<>(List.of("--workload", workload,
        "--record", recordFile.toString(),
        "--data-root", dataRoot.toUri().toString(),
        "--work-root", workRoot.toUri().toString()));
    args.addAll(Arrays.asList(extra));
    return args.toArray(new String[0]);
  }

  /** Generic options first, then the driver's. */
  static String[] concat(String[] first, String... second) {
    String[] out = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, out, first.length, second.length);
    return out;
  }

  private static final class TeeStream extends java.io.OutputStream {
    private final PrintStream first;
    private final ByteArrayOutputStream second;

    TeeStream(PrintStream first, ByteArrayOutputStream second) {
      this.first = first;
      this.second = second;
    }

    @Override
    public synchronized void write(int b) {
      first.write(b);
      second.write(b);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      first.write(b, off, len);
      second.write(b, off, len);
    }

    @Override
    public void flush() {
      first.flush();
    }
  }

  static void deleteQuietly(Path dir) {
    if (dir != null) {
      org.apache.hadoop.fs.FileUtil.fullyDelete(dir.toFile());
    }
  }

  static Path tempDir(String name) throws IOException {
    return Files.createTempDirectory("vivace-driver-" + name);
  }
}
