package io.vivace.workloads;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/** Runs the workloads' tools in-process on Vivace or Apache's LocalJobRunner, for the tests. */
public final class TestJobs {

  /** The two engines every job's test runs on. */
  public static final String[] FRAMEWORKS = {"vivace", "local"};

  private TestJobs() {}

  /**
   * A configuration submitting to {@code framework} with Hadoop's files under {@code scratch}. The
   * LocalJobRunner removes a job's staging directory in its own thread, possibly after the client
   * saw the job finish, so staging is a directory of its own, never one a test removes.
   */
  public static Configuration conf(String framework, Path scratch) throws IOException {
    Configuration conf = new Configuration();
    conf.set("mapreduce.framework.name", framework);
    conf.set("fs.defaultFS", "file:///");
    conf.set("hadoop.tmp.dir", scratch.resolve("tmp").toString());
    conf.set("mapreduce.cluster.local.dir", scratch.resolve("local").toString());
    conf.set("mapreduce.jobtracker.staging.root.dir",
        Files.createTempDirectory(stagingRoot(), "staging").toString());
    conf.set("vivace.history.dir", scratch.resolve("history").toString());
    return conf;
  }

  private static Path stagingRoot;

  /** One folder for this JVM's staging folders, removed when the JVM ends (after every job's own removal). */
  private static synchronized Path stagingRoot() throws IOException {
    if (stagingRoot == null) {
      Path root = Files.createTempDirectory("vivace-test-staging");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> org.apache.hadoop.fs.FileUtil.fullyDelete(root.toFile())));
      stagingRoot = root;
    }
    return stagingRoot;
  }

  /** {@code ToolRunner.run}; the exit status. */
  public static int run(Configuration conf, Tool tool, String... args) throws Exception {
    return ToolRunner.run(new Configuration(conf), tool, args);
  }

  /** The lines of a directory's data files, in name order. */
  public static List<String> lines(Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    for (Path file : dataFiles(dir)) {
      lines.addAll(Files.readAllLines(file, StandardCharsets.UTF_8));
    }
    return lines;
  }

  /** A directory's data files (not {@code _SUCCESS}, not checksums), in name order. */
  public static List<Path> dataFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> !f.getFileName().toString().startsWith("_")
          && !f.getFileName().toString().startsWith(".")).sorted().toList();
    }
  }

  /** Total bytes of a directory's data files. */
  public static long bytes(Path dir) throws IOException {
    long total = 0;
    for (Path file : dataFiles(dir)) {
      total += Files.size(file);
    }
    return total;
  }
}
