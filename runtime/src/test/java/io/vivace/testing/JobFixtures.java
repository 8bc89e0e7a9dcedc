package io.vivace.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.JobClient;
import org.apache.hadoop.mapred.RunningJob;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;

/**
 * Shared fixtures for job-level tests: configurations that run a job either on the embedded
 * Vivace engine or on Apache's LocalJobRunner with every directory inside a test's temporary
 * folder, input file writers, and readers for a job's {@code part-*} output files.
 */
public final class JobFixtures {

  /** {@code mapreduce.framework.name} of the embedded Vivace engine. */
  public static final String VIVACE = "vivace";
  /** {@code mapreduce.framework.name} of Apache's LocalJobRunner. */
  public static final String LOCAL = "local";

  private JobFixtures() {
  }

  /**
   * A configuration for {@code framework} whose local, temporary, staging and history directories
   * all lie under {@code root} (created as needed).
   */
  public static Configuration frameworkConf(java.nio.file.Path root, String framework) {
    Configuration conf = new Configuration();
    conf.set("mapreduce.framework.name", framework);
    conf.set("fs.defaultFS", "file:///");
    conf.set("hadoop.tmp.dir", dir(root, "hadoop-tmp").toString());
    conf.set("mapreduce.cluster.local.dir", localDir(root).toString());
    conf.set("mapreduce.jobtracker.staging.root.dir", stagingRoot(root).toString());
    conf.set("mapreduce.jobtracker.system.dir", dir(root, "system").toString());
    conf.set("vivace.history.dir", historyDir(root).toString());
    if (LOCAL.equals(framework)) {
      // the client's default 1 s / 5 s polling would dominate these short jobs (Vivace's
      // provider shortens it by itself)
      conf.setInt("mapreduce.client.progressmonitor.pollinterval", 20);
      conf.setInt("mapreduce.client.completion.pollinterval", 20);
    }
    return conf;
  }

  /** An old-API {@link JobConf} for {@code framework}, like {@link #frameworkConf}. */
  public static JobConf frameworkJobConf(java.nio.file.Path root, String framework) {
    return new JobConf(frameworkConf(root, framework));
  }

  /** {@code mapreduce.cluster.local.dir} of configurations made for {@code root}. */
  public static java.nio.file.Path localDir(java.nio.file.Path root) {
    return root.resolve("local");
  }

  /** {@code mapreduce.jobtracker.staging.root.dir} of configurations made for {@code root}. */
  public static java.nio.file.Path stagingRoot(java.nio.file.Path root) {
    return root.resolve("staging");
  }

  /** {@code vivace.history.dir} of configurations made for {@code root}. */
  public static java.nio.file.Path historyDir(java.nio.file.Path root) {
    return root.resolve("history");
  }

  private static java.nio.file.Path dir(java.nio.file.Path root, String name) {
    return root.resolve(name);
  }

  /** A Hadoop path for a local file or directory. */
  public static Path hadoopPath(java.nio.file.Path local) {
    return new Path(local.toAbsolutePath().toUri());
  }

  /** Writes {@code lines} (each followed by a newline) to {@code file}, creating its parents. */
  public static java.nio.file.Path writeInputLines(java.nio.file.Path file, Collection<String> lines) {
    StringBuilder text = new StringBuilder();
    for (String line : lines) {
      text.append(line).append('\n');
    }
    return writeInputText(file, text.toString());
  }

  /** Writes {@code text} to {@code file} (empty text makes an empty file), creating its parents. */
  public static java.nio.file.Path writeInputText(java.nio.file.Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text, StandardCharsets.UTF_8);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Names of the {@code part-*} files in {@code outputDir}, sorted. */
  public static List<String> partFileNames(java.nio.file.Path outputDir) {
    try (Stream<java.nio.file.Path> files = Files.list(outputDir)) {
      return files.map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("part-"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The lines of every {@code part-*} file of {@code outputDir}, keyed by file name (sorted). */
  public static Map<String, List<String>> readPartFiles(java.nio.file.Path outputDir) {
    Map<String, List<String>> parts = new LinkedHashMap<>();
    for (String name : partFileNames(outputDir)) {
      try {
        parts.put(name, Files.readAllLines(outputDir.resolve(name), StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return parts;
  }

  /** The lines of all {@code part-*} files of {@code outputDir}, in file-name order. */
  public static List<String> readPartLines(java.nio.file.Path outputDir) {
    List<String> lines = new ArrayList<>();
    readPartFiles(outputDir).values().forEach(lines::addAll);
    return lines;
  }

  /** Everything below {@code dir} (relative paths, sorted); empty when {@code dir} does not exist. */
  public static List<String> filesBelow(java.nio.file.Path dir) {
    List<String> found = new ArrayList<>();
    if (!Files.exists(dir)) {
      return found;
    }
    try {
      // tolerant of files that disappear during the walk (LocalJobRunner cleans up concurrently)
      Files.walkFileTree(dir, new java.nio.file.SimpleFileVisitor<>() {
        @Override
        public java.nio.file.FileVisitResult preVisitDirectory(java.nio.file.Path d,
            java.nio.file.attribute.BasicFileAttributes attrs) {
          if (!d.equals(dir)) {
            found.add(dir.relativize(d).toString());
          }
          return java.nio.file.FileVisitResult.CONTINUE;
        }

        @Override
        public java.nio.file.FileVisitResult visitFile(java.nio.file.Path f,
            java.nio.file.attribute.BasicFileAttributes attrs) {
          found.add(dir.relativize(f).toString());
          return java.nio.file.FileVisitResult.CONTINUE;
        }

        @Override
        public java.nio.file.FileVisitResult visitFileFailed(java.nio.file.Path f, IOException e) {
          return java.nio.file.FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    found.sort(null);
    return found;
  }

  /** Builds a new-API job reading {@code input} and writing {@code output}. */
  @FunctionalInterface
  public interface NewApiJobSpec {
    Job build(Configuration conf, Path input, Path output) throws Exception;
  }

  /** Configures an old-API job reading {@code input} and writing {@code output}. */
  @FunctionalInterface
  public interface OldApiJobSpec {
    void configure(JobConf conf, Path input, Path output) throws Exception;
  }

  /** A finished job, its output files and its counters. */
  public record FinishedJob(Job job, boolean succeeded, java.nio.file.Path output,
                            Map<String, List<String>> parts, Counters counters) {
    public long counter(Enum<?> key) {
      return counters.findCounter(key).getValue();
    }

    public long counter(String group, String name) {
      return counters.findCounter(group, name).getValue();
    }

    /** The lines of all part files in file-name order. */
    public List<String> lines() {
      List<String> lines = new ArrayList<>();
      parts.values().forEach(lines::addAll);
      return lines;
    }
  }

  /** A finished old-API job, its output files and its counters. */
  public record FinishedOldApiJob(RunningJob job, java.nio.file.Path output,
                                  Map<String, List<String>> parts, org.apache.hadoop.mapred.Counters counters) {
    public long counter(Enum<?> key) {
      return counters.findCounter(key).getValue();
    }

    public long counter(String group, String name) {
      return counters.findCounter(group, name).getValue();
    }

    public List<String> lines() {
      List<String> lines = new ArrayList<>();
      parts.values().forEach(lines::addAll);
      return lines;
    }
  }

  /**
   * Runs a new-API job on {@code framework} with its directories under {@code root/<framework>},
   * reading {@code input} and writing {@code root/<framework>-out}; waits for it to end.
   */
  public static FinishedJob runNewApiJob(String framework, java.nio.file.Path root, java.nio.file.Path input,
                                         NewApiJobSpec spec) throws Exception {
    Configuration conf = frameworkConf(root.resolve(framework), framework);
    java.nio.file.Path output = root.resolve(framework + "-out");
    Job job = spec.build(conf, hadoopPath(input), hadoopPath(output));
    boolean ok = job.waitForCompletion(false);
    awaitLocalRunnerCleanup(framework, root.resolve(framework), job.getJobID().toString());
    Map<String, List<String>> parts = Files.isDirectory(output) ? readPartFiles(output) : Map.of();
    return new FinishedJob(job, ok, output, parts, job.getCounters());
  }

  /** Like {@link #runNewApiJob} for an old-API job run with {@link JobClient#runJob}. */
  public static FinishedOldApiJob runOldApiJob(String framework, java.nio.file.Path root, java.nio.file.Path input,
                                               OldApiJobSpec spec) throws Exception {
    JobConf conf = frameworkJobConf(root.resolve(framework), framework);
    java.nio.file.Path output = root.resolve(framework + "-out");
    spec.configure(conf, hadoopPath(input), hadoopPath(output));
    RunningJob job = JobClient.runJob(conf);
    awaitLocalRunnerCleanup(framework, root.resolve(framework), job.getID().toString());
    return new FinishedOldApiJob(job, output, readPartFiles(output), job.getCounters());
  }

  /**
   * LocalJobRunner reports a job complete before its thread deletes the job's staging and local
   * files; wait for that so that the test's temporary folder can be deleted. (Vivace removes them
   * before it reports completion, which its own tests check.)
   */
  public static void awaitLocalRunnerCleanup(String framework, java.nio.file.Path frameworkRoot, String jobId)
      throws InterruptedException {
    if (!LOCAL.equals(framework)) {
      return;
    }
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      boolean left = false;
      for (java.nio.file.Path dir : List.of(localDir(frameworkRoot), stagingRoot(frameworkRoot))) {
        for (String f : filesBelow(dir)) {
          if (f.contains(jobId) && Files.isRegularFile(dir.resolve(f))) {
            left = true;
          }
        }
      }
      if (!left) {
        return;
      }
      Thread.sleep(10);
    }
  }
}
