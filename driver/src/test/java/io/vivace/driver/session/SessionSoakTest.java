package io.vivace.driver.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.client.SessionClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.StringTokenizer;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.WordCount;
import org.apache.hadoop.examples.terasort.TeraGen;
import org.apache.hadoop.examples.terasort.TeraInputFormat;
import org.apache.hadoop.examples.terasort.TeraOutputFormat;
import org.apache.hadoop.examples.terasort.TeraSort;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.ClusterMetrics;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.SleepJob;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A soak of a session on the run's three-NodeManager mini-cluster: jobs of mixed kinds (sleep,
 * terasort, wordcount, a word count whose mapper keeps its output key in a static field, a job that
 * fails, a job killed while it runs), several at once, while executors are SIGKILLed at random
 * moments. No job fails or hangs that was not meant to; every successful output is the same bytes
 * as the embedded engine's; the session is idle and empty at the end. It prints its numbers (jobs,
 * kills, attempts run again, time).
 *
 * <p>Its size: {@code -Dvivace.soak.jobs} (default 18), {@code -Dvivace.soak.parallel} jobs at once
 * (default 3), an executor killed every {@code -Dvivace.soak.kill.interval.ms} on average (default
 * 12000). The report's run: {@code -Dvivace.soak.jobs=300}.
 */
@Tag("minicluster")
@Tag("slow")
@Timeout(value = 3, unit = TimeUnit.HOURS)
@ExtendWith(SharedCluster.class)
class SessionSoakTest {

  private static final String SESSION = "soak";
  private static final int JOBS = Integer.getInteger("vivace.soak.jobs", 18);
  private static final int PARALLEL = Integer.getInteger("vivace.soak.parallel", 3);
  private static final long KILL_INTERVAL_MS = Long.getLong("vivace.soak.kill.interval.ms", 12_000);
  private static final long JOB_GUARD_MINUTES = 10;
  private static final Path ROOT = new Path("/soak");
  private static final Path TERA_IN = new Path(ROOT, "tera-in");
  private static final Path TEXT_IN = new Path(ROOT, "text-in");
  /** TeraSort's partition file, as its total-order partitioner reads it from the job's cache. */
  private static final String PARTITION_FILE = "_partition.lst";

  private enum Kind { SLEEP, TERASORT, WORDCOUNT, STATIC_KEY, FAILING, KILLED }

  /** What one job did. */
  private record Outcome(Kind kind, JobStatus.State state, long attempts, long tasks, long killedAttempts) {
  }

  private ClusterFixture cluster;
  private FileSystem fs;

  private Configuration session() {
    Configuration conf = cluster.sessionConf(SESSION);
    conf.setInt("vivace.session.executors.min", 3);
    conf.setInt("vivace.session.executors.max", 3);
    conf.setInt("vivace.session.executor.slots", 2);
    conf.setLong("vivace.session.executor.silence.timeout.ms", 20_000);
    return conf;
  }

  @Test
  void mixedJobsWhileExecutorsAreKilledAtRandom() throws Exception {
    cluster = SharedCluster.cluster();
    fs = FileSystem.get(cluster.embeddedConf());
    Map<Kind, Path> reference = prepare();
    String application = startSession();
    AtomicBoolean soaking = new AtomicBoolean(true);
    AtomicInteger kills = new AtomicInteger();
    Thread killer = new Thread(() -> killExecutors(application, soaking, kills), "soak-killer");
    ExecutorService clients = Executors.newFixedThreadPool(PARALLEL);
    long start = System.nanoTime();
    List<Outcome> outcomes = new ArrayList<>();
    try {
      killer.start();
      Random random = new Random(24);
      List<Future<Outcome>> jobs = new ArrayList<>();
      for (int n = 0; n < JOBS; n++) {
        Kind kind = Kind.values()[random.nextInt(Kind.values().length)];
        int number = n;
        jobs.add(clients.submit(() -> run(kind, number, reference)));
      }
      for (int n = 0; n < JOBS; n++) {
        outcomes.add(jobs.get(n).get(JOB_GUARD_MINUTES, TimeUnit.MINUTES));
      }
    } finally {
      soaking.set(false);
      killer.join();
      clients.shutdownNow();
    }
    long seconds = (System.nanoTime() - start) / 1_000_000_000L;
    try {
      assertIdleAndEmpty(application);
    } finally {
      SessionClient.stop(session(), SESSION);
    }
    report(outcomes, kills.get(), seconds);
  }

  // ---- the jobs ----------------------------------------------------------------------------

  /** The inputs, and the embedded engine's output of each kind that has one. */
  private Map<Kind, Path> prepare() throws Exception {
    Configuration embedded = cluster.embeddedConf();
    assertEquals(0, org.apache.hadoop.util.ToolRunner.run(embedded, new TeraGen(),
        new String[] {"-D", "mapreduce.job.maps=3", "20000", TERA_IN.toString()}));
    Random random = new Random(7);
    for (int f = 0; f < 3; f++) {
      StringBuilder text = new StringBuilder();
      for (int line = 0; line < 3000; line++) {
        for (int w = 0; w < 8; w++) {
          text.append('w').append("x".repeat(random.nextInt(10))).append(random.nextInt(400)).append(' ');
        }
        text.append('\n');
      }
      try (FSDataOutputStream out = fs.create(new Path(TEXT_IN, "part-" + f))) {
        out.write(text.toString().getBytes(StandardCharsets.UTF_8));
      }
    }
    Map<Kind, Path> reference = new EnumMap<>(Kind.class);
    for (Kind kind : List.of(Kind.TERASORT, Kind.WORDCOUNT, Kind.STATIC_KEY)) {
      Path out = new Path(ROOT, "reference-" + kind.name().toLowerCase());
      Job job = job(embedded, kind, out);
      assertTrue(job.waitForCompletion(false), kind + " on the embedded engine");
      reference.put(kind, out);
    }
    return reference;
  }

  private String startSession() throws Exception {
    Job warm = job(session(), Kind.SLEEP, null);
    assertTrue(warm.waitForCompletion(false), "the first sleep job on the session");
    return SessionClient.list(session()).stream().filter(s -> SessionClient.sessionName(s).equals(SESSION))
        .findFirst().orElseThrow().getApplicationId().toString();
  }

  private Outcome run(Kind kind, int number, Map<Kind, Path> reference) throws Exception {
    Path out = new Path(ROOT, "out-" + number);
    Job job = job(session(), kind, out);
    String what = kind + " job " + number;
    if (kind == Kind.KILLED) {
      job.submit();
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(JOB_GUARD_MINUTES);
      while (job.getStatus().getState() == JobStatus.State.PREP && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      Thread.sleep(new Random(number).nextInt(2000));
      job.killJob();
      assertEquals(JobStatus.State.KILLED, job.getStatus().getState(), what + ": " + job.getStatus().getFailureInfo());
      Outputs.assertNothingCommitted(fs, out, what);
    } else if (kind == Kind.FAILING) {
      assertTrue(!job.waitForCompletion(false), what + " succeeded");
      assertEquals(JobStatus.State.FAILED, job.getStatus().getState(), what);
      assertTrue(job.getStatus().getFailureInfo().startsWith("Task failed task_"), what + ": "
          + job.getStatus().getFailureInfo());
      Outputs.assertNothingCommitted(fs, out, what);
    } else {
      assertTrue(job.waitForCompletion(false), what + " failed: " + job.getStatus().getFailureInfo());
      if (reference.containsKey(kind)) {
        Outputs.assertCommitted(fs, out, what);
        Outputs.assertSameFiles(fs, reference.get(kind), out, what + " against the embedded engine's output");
      }
    }
    Counters counters = job.getCounters();
    long attempts = counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue()
        + counters.findCounter(JobCounter.TOTAL_LAUNCHED_REDUCES).getValue();
    long tasks = job.getTaskReports(TaskType.MAP).length + job.getTaskReports(TaskType.REDUCE).length;
    long killed = counters.findCounter(JobCounter.NUM_KILLED_MAPS).getValue()
        + counters.findCounter(JobCounter.NUM_KILLED_REDUCES).getValue();
    return new Outcome(kind, job.getStatus().getState(), attempts, tasks, killed);
  }

  /** A job of {@code kind} writing into {@code out}, on {@code conf}'s engine. */
  private Job job(Configuration conf, Kind kind, Path out) throws IOException {
    Configuration jobConf = new Configuration(conf);
    switch (kind) {
      case SLEEP, KILLED -> {
        SleepJob sleep = new SleepJob();
        sleep.setConf(jobConf);
        return kind == Kind.SLEEP ? sleep.createJob(4, 2, 300, 2, 300, 2) : sleep.createJob(3, 1, 60_000, 1, 10, 1);
      }
      case TERASORT -> {
        // what TeraSort's own run does: the sampled partition file in the job's cache, for its
        // total-order partitioner (TeraSort's, package-private: named, as its run names it)
        Job job = Job.getInstance(jobConf, "soak terasort");
        job.setJarByClass(TeraSort.class);
        FileInputFormat.addInputPath(job, TERA_IN);
        FileOutputFormat.setOutputPath(job, out);
        job.setInputFormatClass(TeraInputFormat.class);
        job.setOutputFormatClass(TeraOutputFormat.class);
        job.setOutputKeyClass(Text.class);
        job.setOutputValueClass(Text.class);
        job.setNumReduceTasks(2);
        Path partitions = new Path(ROOT, "partitions/" + out.getName() + "/" + PARTITION_FILE);
        try {
          TeraInputFormat.writePartitionFile(job, partitions);
          job.addCacheFile(new java.net.URI(partitions + "#" + PARTITION_FILE));
        } catch (Throwable e) {
          throw new IOException("could not sample " + TERA_IN + " into " + partitions, e);
        }
        job.getConfiguration().set("mapreduce.job.partitioner.class",
            TeraSort.class.getName() + "$TotalOrderPartitioner");
        return job;
      }
      case WORDCOUNT, STATIC_KEY, FAILING -> {
        Job job = Job.getInstance(jobConf, "soak " + kind.name().toLowerCase());
        job.setJarByClass(SessionSoakTest.class);
        job.setMapperClass(kind == Kind.WORDCOUNT ? WordCount.TokenizerMapper.class
            : kind == Kind.STATIC_KEY ? StaticKeyTokenizer.class : FailingMapper.class);
        job.setCombinerClass(IntSumReducer.class);
        job.setReducerClass(IntSumReducer.class);
        job.setNumReduceTasks(2);
        job.setOutputKeyClass(Text.class);
        job.setOutputValueClass(IntWritable.class);
        job.getConfiguration().setInt("mapreduce.map.maxattempts", 2);
        FileInputFormat.addInputPath(job, TEXT_IN);
        FileOutputFormat.setOutputPath(job, out);
        return job;
      }
      default -> throw new IllegalArgumentException(kind.toString());
    }
  }

  /** The output key in a static field, as many public jobs keep it (safe where each task has its JVM). */
  public static class StaticKeyTokenizer extends Mapper<LongWritable, Text, Text, IntWritable> {
    private static final Text WORD = new Text();
    private static final IntWritable ONE = new IntWritable(1);

    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      StringTokenizer words = new StringTokenizer(value.toString());
      while (words.hasMoreTokens()) {
        WORD.set(words.nextToken());
        context.write(WORD, ONE);
      }
    }
  }

  /** Fails every attempt on its first record. */
  public static class FailingMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException {
      throw new IOException("the soak's failing job, as meant: record at " + key);
    }
  }

  // ---- the executors' killer and the end ----------------------------------------------------

  private static void killExecutors(String application, AtomicBoolean soaking, AtomicInteger kills) {
    Random random = new Random(11);
    while (soaking.get()) {
      try {
        Thread.sleep((long) (KILL_INTERVAL_MS * (0.5 + random.nextDouble())));
        List<ProcessHandle> executors = ContainerProcesses.allJavaWith("io.vivace.cluster.executor.ExecutorMain",
            application);
        if (soaking.get() && !executors.isEmpty()) {
          ContainerProcesses.kill(executors.get(random.nextInt(executors.size())));
          kills.incrementAndGet();
        }
      } catch (InterruptedException e) {
        return;
      } catch (Exception e) {
        System.err.println("soak: could not kill an executor: " + e);
      }
    }
  }

  /** No job runs, no attempt holds a slot, no launch waits: within a minute of the last job's end. */
  private void assertIdleAndEmpty(String application) throws Exception {
    Cluster client = new Cluster(session());
    try {
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      ClusterMetrics metrics = client.getClusterStatus();
      while (metrics.getOccupiedMapSlots() + metrics.getOccupiedReduceSlots() + metrics.getRunningMaps()
          + metrics.getRunningReduces() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(200);
        metrics = client.getClusterStatus();
      }
      assertEquals(0, metrics.getOccupiedMapSlots() + metrics.getOccupiedReduceSlots(), () -> "slots still taken; "
          + "attempts given to executors not lost that none logged ended: " + unendedAttempts(application));
      assertEquals(0, metrics.getRunningMaps() + metrics.getRunningReduces(), "tasks still running");
      for (JobStatus status : client.getAllJobStatuses()) {
        assertTrue(status.isJobComplete(), status.getJobID() + " is not over: " + status.getState());
      }
    } finally {
      client.close();
    }
  }

  private String unendedAttempts(String application) {
    try {
      return SessionLogs.unendedAttempts(cluster, application);
    } catch (IOException e) {
      return "(the session's logs could not be read: " + e + ")";
    }
  }

  private static void report(List<Outcome> outcomes, int kills, long seconds) {
    Map<Kind, Integer> byKind = new EnumMap<>(Kind.class);
    long rerun = 0;
    long killedAttempts = 0;
    for (Outcome o : outcomes) {
      byKind.merge(o.kind(), 1, Integer::sum);
      if (o.state() == JobStatus.State.SUCCEEDED) {
        rerun += o.attempts() - o.tasks();
        killedAttempts += o.killedAttempts();
      }
    }
    System.out.println("soak: " + outcomes.size() + " jobs " + byKind + ", " + PARALLEL + " at once, " + kills
        + " executors SIGKILLed, " + rerun + " attempts run again in the jobs that succeeded (" + killedAttempts
        + " of them counted killed), " + seconds + " s");
  }
}
