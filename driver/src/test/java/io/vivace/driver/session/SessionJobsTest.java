package io.vivace.driver.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.client.SessionClient;
import io.vivace.cluster.client.SessionCommand;
import io.vivace.cluster.rpc.SessionRpc;
import io.vivace.workloads.bench.LatencyBench;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** Jobs on a Vivace session on YARN + HDFS (Apache's mini-clusters, three nodes). */
@Tag("minicluster")
@Timeout(900)
@ExtendWith(SharedCluster.class)
class SessionJobsTest {

  private static final String SESSION = "jobs";
  private static ClusterFixture cluster;

  @BeforeAll
  static void useTheCluster() {
    cluster = SharedCluster.cluster();
  }

  @AfterAll
  static void stopTheSession() throws IOException {
    SessionClient.stop(sessionConf(), SESSION);
  }

  private static Configuration sessionConf() {
    return cluster.sessionConf(SESSION);
  }

  public static class UpperMapper extends Mapper<LongWritable, Text, LongWritable, Text> {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      context.write(key, new Text(value.toString().toUpperCase()));
    }
  }

  private static List<String> read(FileSystem fs, Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    for (FileStatus part : fs.listStatus(dir, p -> p.getName().startsWith("part-"))) {
      try (var in = fs.open(part.getPath())) {
        lines.addAll(List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")));
      }
    }
    return lines;
  }

  /**
   * Two clients submit at the same moment with no session running: each finds none and starts one,
   * and they end up on the same session (the other is stopped), where both jobs run.
   */
  @Test
  void twoClientsFindingNoSessionShareTheOneStartedFirst() throws Exception {
    Configuration conf = sessionConf();
    assertEquals(List.of(), sessions(conf), "sessions before the first job");
    CyclicBarrier bothReady = new CyclicBarrier(2);
    CompletableFuture.allOf(onItsOwnThread(() -> wordCount(bothReady)),
        onItsOwnThread(() -> mapOnly(bothReady))).join();
    assertEquals(1, sessions(conf).size(), "sessions alive after two clients started at once");
  }

  /**
   * A warm client asks YARN nothing per job: the session it found is kept, with its connection, for
   * the JVM's next jobs (counted on the ResourceManager's own RPC metrics). Once that session has
   * ended behind the client's back (killed through YARN), the next job looks for a session again,
   * starts a new one and runs there. The session's master and executors run with the JVM options
   * of {@code vivace.session.java.opts}, after the tier's.
   */
  @Test
  void aWarmClientAsksYarnNothingPerJobUntilItsSessionEnds() throws Exception {
    Configuration conf = cluster.sessionConf("warm");
    String mark = "-Dvivace.test.session=warm";
    conf.set("vivace.session.java.opts", conf.get("vivace.session.java.opts", "") + " " + mark);
    try {
      String first = emptyJobOn(conf);
      ContainerProcesses.javaWith("io.vivace.cluster.session.SessionMaster", mark); // the one master, with it
      long executorDeadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1); // the warm one, maybe still starting
      while (ContainerProcesses.allJavaWith("io.vivace.cluster.executor.ExecutorMain", mark).isEmpty()) {
        assertTrue(System.nanoTime() < executorDeadline, "the session's executor runs with " + mark);
        Thread.sleep(100);
      }
      long lookups = yarnLookups();
      for (int i = 0; i < 3; i++) {
        assertEquals(first, emptyJobOn(conf), "the session of warm job " + i);
      }
      assertEquals(lookups, yarnLookups(), "calls to YARN's client service for three warm jobs");
      org.apache.hadoop.yarn.client.api.YarnClient yarn = org.apache.hadoop.yarn.client.api.YarnClient.createYarnClient();
      yarn.init(new org.apache.hadoop.yarn.conf.YarnConfiguration(conf));
      yarn.start();
      org.apache.hadoop.yarn.api.records.ApplicationId ended;
      try {
        ended = SessionClient.list(conf).stream()
            .filter(s -> SessionClient.sessionName(s).equals("warm")).findFirst().orElseThrow().getApplicationId();
        yarn.killApplication(ended);
        while (!yarn.getApplicationReport(ended).getYarnApplicationState().toString().equals("KILLED")) {
          Thread.sleep(100);
        }
      } finally {
        yarn.stop();
      }
      // the client may have taken a job id from the ending session before finding it gone: the job
      // then starts over on the new session under that id, so the session is told by its page
      String trackedAt;
      try (Job job = LatencyBench.emptyJob(conf)) {
        assertTrue(job.waitForCompletion(false), job.getStatus().getFailureInfo());
        trackedAt = job.getTrackingURL();
      }
      org.apache.hadoop.yarn.api.records.ApplicationReport now = SessionClient.list(conf).stream()
          .filter(s -> SessionClient.sessionName(s).equals("warm")).findFirst().orElseThrow();
      assertTrue(!now.getApplicationId().equals(ended), "the session after " + ended + " ended: " + now);
      assertTrue(trackedAt.contains(hostAndPort(now.getOriginalTrackingUrl())),
          "a job after the session ended runs on the new session " + now.getApplicationId() + " (its page "
              + now.getOriginalTrackingUrl() + "), tracked at " + trackedAt);
      assertTrue(yarnLookups() > lookups, "the new session was looked for on YARN");
    } finally {
      SessionClient.stop(conf, "warm");
    }
  }

  /**
   * {@code vivace session start} with {@code vivace.session.start.wait.ms} returns a session whose
   * minimum executors have joined it; a second start of the same name is refused, naming the
   * session that runs; one whose executors do not join in time is stopped, and the command fails
   * saying how many joined.
   */
  @Test
  void aSessionStartWaitsForItsWarmExecutorsOrStopsTheSession() throws Exception {
    Configuration conf = cluster.sessionConf("ready");
    String[] warm = {"-D", "vivace.session.executors.min=2", "-D", "vivace.session.start.wait.ms=180000", "start", "ready"};
    try {
      Said started = sessionCommand(conf, warm);
      assertEquals(0, started.code(), started.err());
      ClientProtocol session = SessionClient.connect(conf);
      try {
        assertEquals(2, session.getClusterMetrics().getTaskTrackerCount(), "executors joined when start returned");
      } finally {
        SessionRpc.close(session);
      }
      String running = started.out().split("\t")[0];
      Said again = sessionCommand(conf, "start", "ready");
      assertEquals(1, again.code(), again.err());
      assertTrue(again.err().contains("Vivace session ready runs already (" + running + ", RUNNING)"), again.err());
      assertEquals(1, SessionClient.list(conf).stream().filter(s -> SessionClient.sessionName(s).equals("ready")).count(),
          "one session named ready: " + SessionClient.list(conf));
    } finally {
      SessionClient.stop(conf, "ready");
    }
    String[] hurried = {"-D", "vivace.session.executors.min=2", "-D", "vivace.session.start.wait.ms=1", "start", "hurried"};
    try {
      Said failed = sessionCommand(conf, hurried);
      assertEquals(1, failed.code(), failed.err());
      assertTrue(failed.err().contains("of its 2 executors (vivace.session.executors.min) after 1 ms (vivace.session.start.wait.ms)")
          && failed.err().contains("the session is stopped"), failed.err());
      assertTrue(SessionClient.list(conf).stream().noneMatch(s -> SessionClient.sessionName(s).equals("hurried")),
          "the session that was not warm in time is stopped: " + SessionClient.list(conf));
    } finally {
      SessionClient.stop(conf, "hurried"); // when the command failed to
    }
  }

  private record Said(int code, String out, String err) {
  }

  /** Runs {@code vivace session ARGS} in this JVM; its exit code and what it printed. */
  private static Said sessionCommand(Configuration conf, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    PrintStream stderr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      int code = ToolRunner.run(new Configuration(conf), new SessionCommand(), args);
      return new Said(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(stdout);
      System.setErr(stderr);
    }
  }

  /** Writes the text of the resource {@value #VERSION} of the job's class path, once per map. */
  public static class JarVersionMapper extends Mapper<LongWritable, Text, Text, Text> {
    @Override
    protected void setup(Context context) throws IOException {
      try (var in = context.getConfiguration().getClassLoader().getResourceAsStream(VERSION)) {
        context.getCounter("jar", in == null ? "none" : new String(in.readAllBytes(), StandardCharsets.UTF_8))
            .increment(1);
      }
    }

    @Override
    protected void map(LongWritable key, Text value, Context context) {
    }
  }

  private static final String VERSION = "vivace-test-jar-version.txt";

  /**
   * A job jar is uploaded to the cluster once, under its content's digest, and the job pointed at
   * that copy (so Hadoop's job client stages no jar); the same jar again is not uploaded again; a jar
   * changed in place between two jobs is not served stale.
   */
  @Test
  void aJobJarIsUploadedOnceAndAChangedJarIsNotServedStale() throws Exception {
    Configuration conf = sessionConf();
    FileSystem fs = FileSystem.get(conf);
    Path input = new Path("/in/jar-version");
    try (FSDataOutputStream out = fs.create(input)) {
      out.write("one line\n".getBytes(StandardCharsets.UTF_8));
    }
    java.io.File jar = java.nio.file.Files.createTempFile("vivace-job-", ".jar").toFile();
    try {
      writeJar(jar, "first");
      Job first = versionJob(conf, jar, input, "first");
      Path copy = new Path(first.getConfiguration().get("mapreduce.job.jar"));
      assertEquals(new Path(fs.getHomeDirectory(), ".vivace/jars").toUri().getPath(), copy.getParent().toUri().getPath());
      long uploaded = fs.getFileStatus(copy).getModificationTime();
      Job again = versionJob(conf, jar, input, "first");
      assertEquals(copy.toString(), again.getConfiguration().get("mapreduce.job.jar"));
      assertEquals(uploaded, fs.getFileStatus(copy).getModificationTime(), "the same jar is not uploaded again");
      writeJar(jar, "second");
      Job changed = versionJob(conf, jar, input, "second");
      assertTrue(!copy.toString().equals(changed.getConfiguration().get("mapreduce.job.jar")), "a changed jar's copy");
    } finally {
      jar.delete();
    }
  }

  private static void writeJar(java.io.File jar, String version) throws IOException {
    try (var out = new java.util.jar.JarOutputStream(new java.io.FileOutputStream(jar))) {
      out.putNextEntry(new java.util.jar.JarEntry(VERSION));
      out.write(version.getBytes(StandardCharsets.UTF_8));
      out.closeEntry();
    }
  }

  /** Runs a job with {@code jar} as its job jar; checks that its map read {@code version} from it. */
  private static Job versionJob(Configuration conf, java.io.File jar, Path input, String version) throws Exception {
    Job job = Job.getInstance(conf, "jar version");
    job.setJar(jar.getAbsolutePath());
    job.setMapperClass(JarVersionMapper.class);
    job.setNumReduceTasks(0);
    job.setInputFormatClass(org.apache.hadoop.mapreduce.lib.input.TextInputFormat.class);
    job.setOutputFormatClass(org.apache.hadoop.mapreduce.lib.output.NullOutputFormat.class);
    FileInputFormat.addInputPath(job, input);
    assertTrue(job.waitForCompletion(false), job.getStatus().getFailureInfo());
    assertEquals(1, job.getCounters().findCounter("jar", version).getValue(), "maps that read " + version);
    return job;
  }

  /** Runs an empty job on the session of {@code conf}; the session's part of its job id. */
  private static String emptyJobOn(Configuration conf) throws Exception {
    try (Job job = LatencyBench.emptyJob(conf)) {
      assertTrue(job.waitForCompletion(false), job.getStatus().getFailureInfo());
      return job.getJobID().getJtIdentifier();
    }
  }

  /** The {@code host:port} of a page's address. */
  private static String hostAndPort(String url) {
    java.net.URI uri = java.net.URI.create(url.contains("://") ? url : "http://" + url);
    return uri.getHost() + ":" + uri.getPort();
  }

  /** Calls to the ResourceManager's client service that find applications. */
  private static long yarnLookups() {
    Map<String, Long> calls = RpcCalls.byMethod(RpcCalls.resourceManager(cluster));
    return calls.getOrDefault("GetApplications", 0L) + calls.getOrDefault("GetApplicationReport", 0L);
  }

  /** The user's alive sessions of this class's name. */
  private static List<org.apache.hadoop.yarn.api.records.ApplicationReport> sessions(Configuration conf)
      throws IOException {
    return SessionClient.list(conf).stream().filter(s -> SessionClient.sessionName(s).equals(SESSION)).toList();
  }

  private interface Client {
    void run() throws Exception;
  }

  /** A thread of its own, not the common pool's (one thread on two cores). */
  private static CompletableFuture<Void> onItsOwnThread(Client client) {
    return CompletableFuture.runAsync(() -> {
      try {
        client.run();
      } catch (Exception e) {
        throw new CompletionException(e);
      }
    }, runnable -> new Thread(runnable, "client").start());
  }

  private static void wordCount(CyclicBarrier bothReady) throws Exception {
    Configuration conf = sessionConf();
    FileSystem fs = FileSystem.get(conf);
    Path input = new Path("/in/words");
    java.util.Map<String, Integer> expected = new java.util.TreeMap<>();
    java.util.Random random = new java.util.Random(17);
    for (int f = 0; f < 4; f++) {
      StringBuilder text = new StringBuilder();
      for (int line = 0; line < 2000; line++) {
        for (int w = 0; w < 6; w++) {
          String word = "w" + random.nextInt(300);
          expected.merge(word, 1, Integer::sum);
          text.append(word).append(' ');
        }
        text.append('\n');
      }
      try (FSDataOutputStream out = fs.create(new Path(input, "f" + f))) {
        out.write(text.toString().getBytes(StandardCharsets.UTF_8));
      }
    }
    Job job = Job.getInstance(conf, "word count");
    job.setJarByClass(SessionJobsTest.class);
    job.setMapperClass(org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper.class);
    job.setCombinerClass(org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer.class);
    job.setReducerClass(org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer.class);
    job.setNumReduceTasks(3);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(org.apache.hadoop.io.IntWritable.class);
    FileInputFormat.addInputPath(job, input);
    Path output = new Path("/out/words");
    FileOutputFormat.setOutputPath(job, output);
    bothReady.await(2, TimeUnit.MINUTES);
    assertTrue(job.waitForCompletion(true), job.getStatus().getFailureInfo());
    List<String> lines = read(fs, output);
    lines.sort(null);
    List<String> want = new ArrayList<>();
    expected.forEach((w, n) -> want.add(w + "\t" + n));
    want.sort(null);
    assertEquals(want, lines);
  }

  private static void mapOnly(CyclicBarrier bothReady) throws Exception {
    Configuration conf = sessionConf();
    FileSystem fs = FileSystem.get(conf);
    Path input = new Path("/in/upper");
    for (int f = 0; f < 3; f++) {
      try (FSDataOutputStream out = fs.create(new Path(input, "f" + f))) {
        out.write(("alpha " + f + "\nbeta " + f + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
    Job job = Job.getInstance(conf, "upper");
    job.setJarByClass(UpperMapper.class);
    job.setMapperClass(UpperMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(LongWritable.class);
    job.setOutputValueClass(Text.class);
    FileInputFormat.addInputPath(job, input);
    Path output = new Path("/out/upper");
    FileOutputFormat.setOutputPath(job, output);
    bothReady.await(2, TimeUnit.MINUTES);
    assertTrue(job.waitForCompletion(true), job.getStatus().getFailureInfo());
    List<String> lines = read(fs, output);
    lines.sort(null);
    assertEquals(List.of("0\tALPHA 0", "0\tALPHA 1", "0\tALPHA 2", "8\tBETA 0", "8\tBETA 1", "8\tBETA 2"), lines);
    assertTrue(fs.exists(new Path(output, "_SUCCESS")));
  }
}
