package io.vivace.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * Shared plumbing of the failure-path tests: a configuration whose every directory lives under a
 * test's temporary directory, input files, and checks on what a job left behind (output
 * directory, job local directory, history file, completion events).
 */
final class FailureSupport {

  static final String VIVACE = "vivace";
  static final String LOCAL = "local";
  static final String HISTORY_DIR = "vivace.history.dir";

  /** The upper bound on any wait for an event that must happen; only a guard against hangs. */
  static final long HANG_GUARD_MILLIS = 120_000;

  private static final ObjectMapper JSON = new ObjectMapper();

  private FailureSupport() {
  }

  /** A configuration for {@code framework} keeping staging, local, tmp and history dirs under {@code root}. */
  static Configuration conf(File root, String framework) {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    conf.set(MRConfig.FRAMEWORK_NAME, framework);
    conf.set("hadoop.tmp.dir", new File(root, "tmp").getAbsolutePath());
    conf.set(MRConfig.LOCAL_DIR, localDir(root).getAbsolutePath());
    conf.set("mapreduce.jobtracker.staging.root.dir", new File(root, "staging").getAbsolutePath());
    conf.set(HISTORY_DIR, historyDir(root).getAbsolutePath());
    // These tests steer their tasks through static fields of the test classes, as LocalJobRunner
    // allows: Hadoop's key for classes taken from the system class path shares them with the tasks.
    conf.set("mapreduce.job.classloader.system.classes", "io.vivace.failure.");
    if (LOCAL.equals(framework)) {
      // LocalJobRunner's client would poll every 5 s; Vivace's provider shortens its own polling
      conf.setInt("mapreduce.client.completion.pollinterval", 20);
      conf.setInt("mapreduce.client.progressmonitor.pollinterval", 20);
    }
    return conf;
  }

  static File localDir(File root) {
    return new File(root, "local");
  }

  static File historyDir(File root) {
    return new File(root, "history");
  }

  /** {@code <first mapreduce.cluster.local.dir>/vivace/<job id>}: the job's own local folder. */
  static File jobLocalDir(Configuration conf, JobID id) {
    return jobLocalDirs(conf, id).get(0);
  }

  /** {@code <dir>/vivace/<job id>} for every folder of {@code mapreduce.cluster.local.dir}: where a job's spills go. */
  static List<File> jobLocalDirs(Configuration conf, JobID id) {
    return Arrays.stream(conf.getTrimmedStrings(MRConfig.LOCAL_DIR)).map(d -> new File(d, "vivace/" + id))
        .collect(Collectors.toList());
  }

  static org.apache.hadoop.fs.Path path(File file) {
    return new org.apache.hadoop.fs.Path("file:" + file.getAbsolutePath());
  }

  /** Writes {@code lines} to a new file {@code dir/name}; returns the file. */
  static File writeLines(File dir, String name, List<String> lines) throws IOException {
    Files.createDirectories(dir.toPath());
    File file = new File(dir, name);
    Files.write(file.toPath(), lines, StandardCharsets.UTF_8);
    return file;
  }

  /** {@code files} input files of {@code linesPerFile} lines each, so a job over {@code dir} has that many maps. */
  static File inputFiles(File dir, int files, int linesPerFile) throws IOException {
    for (int f = 0; f < files; f++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < linesPerFile; i++) {
        lines.add("w" + (i % 7) + " x" + f + " common");
      }
      writeLines(dir, "in-" + f + ".txt", lines);
    }
    return dir;
  }

  /** Word counts of the files {@link #inputFiles} wrote, as {@code word<TAB>count} lines, sorted. */
  static List<String> expectedWordCounts(int files, int linesPerFile) {
    java.util.TreeMap<String, Integer> counts = new java.util.TreeMap<>();
    for (int f = 0; f < files; f++) {
      for (int i = 0; i < linesPerFile; i++) {
        for (String w : ("w" + (i % 7) + " x" + f + " common").split(" ")) {
          counts.merge(w, 1, Integer::sum);
        }
      }
    }
    return counts.entrySet().stream().map(e -> e.getKey() + "\t" + e.getValue()).sorted()
        .collect(Collectors.toList());
  }

  /** A word-count job over {@code in} writing {@code out}. */
  static Job wordCount(Configuration conf, String name, File in, File out, int reduces) throws IOException {
    Job job = Job.getInstance(conf, name);
    job.setMapperClass(TokenMapper.class);
    job.setReducerClass(SumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(reduces);
    FileInputFormat.addInputPath(job, path(in));
    FileOutputFormat.setOutputPath(job, path(out));
    return job;
  }

  /** The lines of all {@code part-*} files of {@code out}, sorted. */
  static List<String> readOutput(File out) throws IOException {
    File[] parts = out.listFiles((d, n) -> n.startsWith("part-"));
    assertTrue(parts != null, "no output directory " + out);
    List<String> lines = new ArrayList<>();
    for (File part : parts) {
      lines.addAll(Files.readAllLines(part.toPath(), StandardCharsets.UTF_8));
    }
    Collections.sort(lines);
    return lines;
  }

  /** A failed or killed job committed nothing: no part files, no {@code _SUCCESS}, no {@code _temporary}. */
  static void assertNothingCommitted(File out) {
    String[] names = out.list();
    if (names == null) {
      return; // never created: nothing committed either
    }
    for (String name : names) {
      assertFalse(name.startsWith("part-"), "part file left in " + out + ": " + Arrays.toString(names));
      assertFalse(name.equals("_SUCCESS"), "_SUCCESS left in " + out);
      assertFalse(name.equals("_temporary"), "_temporary left in " + out + ": " + listRecursively(out));
    }
  }

  /**
   * The job's local directories, on every local dir, hold no file any more (spills, merges, map
   * outputs), and its staging directory is gone.
   */
  static void assertNoLocalFiles(Configuration conf, JobID id) {
    for (File dir : jobLocalDirs(conf, id)) {
      List<String> files = regularFiles(dir);
      assertTrue(files.isEmpty(), "files left in the job local dir " + dir + ": " + files);
    }
    try {
      String user = org.apache.hadoop.security.UserGroupInformation.getCurrentUser().getShortUserName();
      File staging = new File(conf.get("mapreduce.jobtracker.staging.root.dir"), user + "/.staging/" + id);
      assertFalse(staging.exists(), "staging directory left: " + listRecursively(staging));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Once a job has ended none of its tasks is still RUNNING or PENDING: each is COMPLETE, FAILED
   * or KILLED (Hadoop kills the tasks a failed or killed job had not finished).
   */
  static void assertNoTaskLeftRunning(Job job) throws IOException, InterruptedException {
    for (org.apache.hadoop.mapreduce.TaskType type : new org.apache.hadoop.mapreduce.TaskType[] {
        org.apache.hadoop.mapreduce.TaskType.MAP, org.apache.hadoop.mapreduce.TaskType.REDUCE}) {
      for (org.apache.hadoop.mapreduce.TaskReport report : job.getTaskReports(type)) {
        org.apache.hadoop.mapred.TIPStatus status = report.getCurrentStatus();
        assertTrue(status == org.apache.hadoop.mapred.TIPStatus.COMPLETE
                || status == org.apache.hadoop.mapred.TIPStatus.FAILED
                || status == org.apache.hadoop.mapred.TIPStatus.KILLED,
            "task " + report.getTaskId() + " of ended job " + job.getJobID() + " is " + status);
      }
    }
  }

  static List<String> regularFiles(File dir) {
    if (!dir.exists()) {
      return List.of();
    }
    try (Stream<java.nio.file.Path> walk = Files.walk(dir.toPath())) {
      return walk.filter(Files::isRegularFile).map(java.nio.file.Path::toString).sorted()
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static String listRecursively(File dir) {
    try (Stream<java.nio.file.Path> walk = Files.walk(dir.toPath())) {
      return walk.map(java.nio.file.Path::toString).collect(Collectors.joining(", "));
    } catch (IOException e) {
      return e.toString();
    }
  }

  /** Every task completion event of the job. */
  static List<TaskCompletionEvent> events(Job job) throws IOException, InterruptedException {
    List<TaskCompletionEvent> all = new ArrayList<>();
    while (true) {
      TaskCompletionEvent[] batch = job.getTaskCompletionEvents(all.size(), 100);
      if (batch.length == 0) {
        return all;
      }
      all.addAll(Arrays.asList(batch));
    }
  }

  static List<TaskCompletionEvent> events(Job job, boolean maps, TaskCompletionEvent.Status status)
      throws IOException, InterruptedException {
    return events(job).stream().filter(e -> e.isMapTask() == maps && e.getStatus() == status)
        .collect(Collectors.toList());
  }

  /** The job's history events ({@code <vivace.history.dir>/<job id>.jsonl}), in order. */
  static List<JsonNode> history(Configuration conf, JobID id) throws IOException {
    File file = new File(conf.get(HISTORY_DIR), id + ".jsonl");
    assertTrue(file.isFile(), "no history file " + file);
    List<JsonNode> events = new ArrayList<>();
    for (String line : Files.readAllLines(file.toPath(), StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        events.add(JSON.readTree(line));
      }
    }
    return events;
  }

  /** Attempt ids of the {@code TASK_ATTEMPT_FINISHED} events of {@code taskType} with {@code status}. */
  static List<String> historyAttempts(Configuration conf, JobID id, String taskType, String status)
      throws IOException {
    return history(conf, id).stream()
        .filter(e -> "TASK_ATTEMPT_FINISHED".equals(e.path("event").asText()))
        .filter(e -> taskType.equals(e.path("taskType").asText()))
        .filter(e -> status.equals(e.path("status").asText()))
        .map(e -> e.path("attemptId").asText())
        .collect(Collectors.toList());
  }

  /** Waits for a condition that the test's own actions make true; fails (instead of hanging) if it never does. */
  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.currentTimeMillis() + HANG_GUARD_MILLIS;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        fail("gave up waiting for: " + what);
      }
      Thread.sleep(5);
    }
  }

  /** The engine's worker slots (its map slot capacity, as the cluster status reports it). */
  static int slots(Configuration conf) throws IOException, InterruptedException {
    org.apache.hadoop.mapreduce.Cluster cluster = new org.apache.hadoop.mapreduce.Cluster(conf);
    try {
      return cluster.getClusterStatus().getMapSlotCapacity();
    } finally {
      cluster.close();
    }
  }

  /** The job's failure info, for assertion messages. */
  static String failureInfo(Job job) {
    try {
      return job.getStatus().getFailureInfo();
    } catch (Exception e) {
      return e.toString();
    }
  }

  static boolean isComplete(Job job) {
    try {
      return job.isComplete();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Waits for a submitted job to end; returns whether it succeeded. */
  static boolean awaitJob(Job job) throws IOException, InterruptedException {
    await("job " + job.getJobID() + " to complete", () -> isComplete(job));
    return job.isSuccessful();
  }

  static void assertOutput(List<String> expected, File out) throws IOException {
    assertEquals(expected, readOutput(out), "output of " + out);
    assertTrue(new File(out, "_SUCCESS").isFile(), "_SUCCESS missing in " + out);
  }

  /** Splits lines into words, emits (word, 1). */
  public static class TokenMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    private final Text word = new Text();
    private final IntWritable one = new IntWritable(1);

    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      for (String w : value.toString().split("\\s+")) {
        if (!w.isEmpty()) {
          word.set(w);
          context.write(word, one);
        }
      }
    }
  }

  /** Sums the counts of a word. */
  public static class SumReducer extends Reducer<Text, IntWritable, Text, IntWritable> {
    private final IntWritable sum = new IntWritable();

    @Override
    protected void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      int s = 0;
      for (IntWritable v : values) {
        s += v.get();
      }
      sum.set(s);
      context.write(key, sum);
    }
  }
}
