package io.vivace.workloads.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.vivace.workloads.CompletionPoll;
import io.vivace.workloads.SplitKeepingSleepJob;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Job latency and task throughput inside one warm JVM, on the framework named by
 * {@code mapreduce.framework.name}:
 *
 * <ol>
 *   <li>an empty job (one empty split, 1 map, 1 reduce, identity mapper and reducer,
 *       {@link NullOutputFormat}) submitted {@code -warmup} times, then {@code -runs} times, each
 *       timed from {@code job.submit()} until {@code job.waitForCompletion(false)} returns;</li>
 *   <li>the split-keeping sleep job with {@code -m} maps, {@code -r} reduces and no sleeping
 *       ({@code -mt 0 -rt 0}), after a warm-up sleep job a tenth its size; tasks/s is
 *       (maps + reduces) / seconds from submit to done; {@code -m 0} leaves it out (where each job
 *       takes tens of seconds, as MapReduce on YARN's do).</li>
 * </ol>
 *
 * <p>The client waits for completion by polling every {@code mapreduce.client.completion.pollinterval}
 * ms (Hadoop's default: 5000). Unless the user sets it, this bench sets 5 ms on every framework, the
 * value Vivace's client would pick itself, so that no framework is timed with a coarser poll.
 *
 * <p>Plain Hadoop API only: it runs on any framework.
 */
public class LatencyBench extends Configured implements Tool {

  static final int VIVACE_DEFAULT_MAPS = 20_000;
  static final int OTHER_DEFAULT_MAPS = 2_000;

  /** What to run. */
  record Options(int warmup, int runs, int maps, int reduces, String json) {
  }

  /** What one bench measured. */
  record Result(String framework, int pollMillis, boolean pollSetByUser, int warmup,
                List<Double> latencyMs, List<Double> submitMs, int maps, int reduces,
                double sleepJobSeconds) {

    LatencySummary latency() {
      return LatencySummary.of(latencyMs);
    }

    LatencySummary submit() {
      return LatencySummary.of(submitMs);
    }

    double tasksPerSecond() {
      return (maps + reduces) / sleepJobSeconds;
    }
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new LatencyBench(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    // JobConf loads mapred-default.xml and mapred-site.xml, which may name the framework.
    Options options = parse(args, new JobConf(getConf()).get(MRConfig.FRAMEWORK_NAME));
    if (options == null) {
      System.err.println("usage: LatencyBench [-warmup N (20)] [-runs N (200)]"
          + " [-m MAPS (" + VIVACE_DEFAULT_MAPS + " on vivace, " + OTHER_DEFAULT_MAPS + " elsewhere; 0: no sleep job)]"
          + " [-r REDUCES (1)] [-json FILE]");
      return 2;
    }
    Result result = measure(options);
    System.out.print(table(result));
    if (options.json() != null) {
      Files.writeString(Path.of(options.json()), json(result));
    }
    return 0;
  }

  static Options parse(String[] args, String framework) {
    int warmup = 20;
    int runs = 200;
    int maps = "vivace".equals(framework) ? VIVACE_DEFAULT_MAPS : OTHER_DEFAULT_MAPS;
    int reduces = 1;
    String json = null;
    try {
      for (int i = 0; i < args.length; i++) {
        String value = i + 1 < args.length ? args[i + 1] : null;
        switch (args[i]) {
          case "-warmup" -> warmup = Integer.parseInt(value);
          case "-runs" -> runs = Integer.parseInt(value);
          case "-m" -> maps = Integer.parseInt(value);
          case "-r" -> reduces = Integer.parseInt(value);
          case "-json" -> json = value;
          default -> {
            return null;
          }
        }
        if (value == null) {
          return null;
        }
        i++;
      }
    } catch (NumberFormatException e) {
      return null;
    }
    if (warmup < 0 || runs < 1 || maps < 0 || reduces < 0) {
      return null;
    }
    return new Options(warmup, runs, maps, reduces, json);
  }

  Result measure(Options options) throws Exception {
    // With mapred-default.xml loaded (by JobConf), a user's setting can be told from the default.
    boolean pollSetByUser = CompletionPoll.setByUser(new JobConf(getConf()));
    Configuration conf = CompletionPoll.timed(getConf());
    String framework = conf.get(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME);

    for (int i = 0; i < options.warmup(); i++) {
      runEmptyJob(conf, null, null);
    }
    List<Double> latencyMs = new ArrayList<>();
    List<Double> submitMs = new ArrayList<>();
    for (int i = 0; i < options.runs(); i++) {
      runEmptyJob(conf, latencyMs, submitMs);
    }

    double seconds = 0;
    if (options.maps() > 0) {
      runSleepJob(conf, Math.max(1, options.maps() / 10), options.reduces());
      seconds = runSleepJob(conf, options.maps(), options.reduces());
    }
    return new Result(framework, conf.getInt(CompletionPoll.KEY, -1), pollSetByUser, options.warmup(),
        latencyMs, submitMs, options.maps(), options.reduces(), seconds);
  }

  /** Runs one empty job; adds its submit-to-done and its submit() times, in ms, to the lists. */
  private static void runEmptyJob(Configuration conf, List<Double> latencyMs, List<Double> submitMs)
      throws Exception {
    try (Job job = emptyJob(conf)) {
      long start = System.nanoTime();
      job.submit();
      long submitted = System.nanoTime();
      boolean succeeded = job.waitForCompletion(false);
      long done = System.nanoTime();
      if (!succeeded) {
        throw new IOException("empty job " + job.getJobID() + " failed: " + job.getStatus().getFailureInfo());
      }
      if (latencyMs != null) {
        latencyMs.add((done - start) / 1e6);
        submitMs.add((submitted - start) / 1e6);
      }
    }
  }

  /** A job of one empty map and one reduce that write nothing: the job whose cost is all overhead. */
  public static Job emptyJob(Configuration conf) throws IOException {
    Job job = Job.getInstance(conf, "empty job");
    job.setJarByClass(LatencyBench.class);
    job.setInputFormatClass(EmptySplitInputFormat.class);
    job.setMapperClass(Mapper.class);
    job.setReducerClass(Reducer.class);
    job.setNumReduceTasks(1);
    job.setOutputKeyClass(NullWritable.class);
    job.setOutputValueClass(NullWritable.class);
    job.setOutputFormatClass(NullOutputFormat.class);
    return job;
  }

  /** Runs the sleep job with no sleeping; returns its submit-to-done seconds. */
  private static double runSleepJob(Configuration conf, int maps, int reduces) throws Exception {
    SplitKeepingSleepJob sleep = new SplitKeepingSleepJob();
    sleep.setConf(new Configuration(conf));
    try (Job job = sleep.createJob(maps, reduces, 0, 1, 0, 1)) {
      long start = System.nanoTime();
      job.submit();
      boolean succeeded = job.waitForCompletion(false);
      long done = System.nanoTime();
      if (!succeeded) {
        throw new IOException("sleep job " + job.getJobID() + " failed: " + job.getStatus().getFailureInfo());
      }
      return (done - start) / 1e9;
    }
  }

  static String table(Result r) {
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "LatencyBench on %s, one JVM; client completion poll %d ms (%s)%n",
        r.framework(), r.pollMillis(), r.pollSetByUser() ? "set by the user"
            : "set by this bench on every framework; Hadoop's default is 5000 ms"));
    out.append(String.format(Locale.ROOT,
        "empty job (1 empty split, 1 map, 1 reduce, NullOutputFormat): %d warm-up + %d timed runs%n",
        r.warmup(), r.latencyMs().size()));
    out.append(String.format(Locale.ROOT, "  %-22s %9s %9s %9s %9s%n", "ms", "min", "median", "p90", "max"));
    out.append(summaryLine("submit to done", r.latency()));
    out.append(summaryLine("  of which submit()", r.submit()));
    if (r.maps() > 0) {
      out.append(String.format(Locale.ROOT,
          "sleep job -m %d -r %d -mt 0 -rt 0 (after a warm-up job): %d tasks in %.3f s = %.0f tasks/s%n",
          r.maps(), r.reduces(), r.maps() + r.reduces(), r.sleepJobSeconds(), r.tasksPerSecond()));
    }
    return out.toString();
  }

  private static String summaryLine(String name, LatencySummary s) {
    return String.format(Locale.ROOT, "  %-22s %9.2f %9.2f %9.2f %9.2f%n", name, s.min(), s.median(), s.p90(), s.max());
  }

  static String json(Result r) {
    LatencySummary latency = r.latency();
    LatencySummary submit = r.submit();
    Map<String, Object> emptyJob = new LinkedHashMap<>();
    emptyJob.put("warmup", r.warmup());
    emptyJob.put("runs", latency.count());
    emptyJob.put("min_ms", latency.min());
    emptyJob.put("median_ms", latency.median());
    emptyJob.put("p90_ms", latency.p90());
    emptyJob.put("max_ms", latency.max());
    emptyJob.put("submit_median_ms", submit.median());
    emptyJob.put("latencies_ms", r.latencyMs());
    Map<String, Object> sleepJob = new LinkedHashMap<>();
    sleepJob.put("maps", r.maps());
    sleepJob.put("reduces", r.reduces());
    sleepJob.put("seconds", r.sleepJobSeconds());
    sleepJob.put("tasks_per_s", r.tasksPerSecond());
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("framework", r.framework());
    json.put("completion_poll_ms", r.pollMillis());
    json.put("completion_poll_set_by", r.pollSetByUser() ? "user" : "bench");
    json.put("empty_job", emptyJob);
    if (r.maps() > 0) {
      json.put("sleep_job", sleepJob);
    }
    try {
      return new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(json) + "\n";
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

}
