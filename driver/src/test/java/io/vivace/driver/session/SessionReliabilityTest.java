package io.vivace.driver.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.client.SessionClient;
import io.vivace.cluster.security.SessionSecretStore;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.terasort.TeraGen;
import org.apache.hadoop.examples.terasort.TeraSort;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.SleepJob;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.ToolRunner;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.log4j.PatternLayout;
import org.apache.log4j.WriterAppender;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What only a real cluster shows of a session's reliability (the dispatcher's own cases run without
 * one, in the runtime's {@code cluster.session} tests), on the run's shared mini-cluster: four
 * clients starting at once end with one session and no other application ever submitted; every
 * executor SIGKILLed as the reduces start costs only their work; a job whose executors can never
 * start tells its client why; {@code vivace session stop} during a job kills it through its
 * committer, tells its client why, and leaves no file of the session; the master's and executors'
 * logs say what happened. Each test has a session of its own name, stopped at its end.
 */
@Tag("minicluster")
@Tag("slow")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@ExtendWith(SharedCluster.class)
class SessionReliabilityTest {

  private static ClusterFixture cluster;
  private static FileSystem fs;

  @BeforeAll
  static void useTheCluster() throws IOException {
    cluster = SharedCluster.cluster();
    fs = FileSystem.get(cluster.sessionConf());
  }

  private static Configuration conf(String session) {
    Configuration conf = cluster.sessionConf(session);
    conf.setInt("vivace.session.executors.min", 2);
    conf.setInt("vivace.session.executors.max", 2);
    return conf;
  }

  /** Every application of the session's name YARN has seen, whatever its state. */
  private static List<ApplicationReport> applications(String session) throws Exception {
    YarnClient yarn = YarnClient.createYarnClient();
    yarn.init(new YarnConfiguration(cluster.sessionConf()));
    yarn.start();
    try {
      return yarn.getApplications(Set.of(SessionClient.APPLICATION_TYPE), EnumSet.allOf(YarnApplicationState.class))
          .stream().filter(a -> a.getName().equals("vivace-session " + session)).toList();
    } finally {
      yarn.stop();
    }
  }

  private static CompletableFuture<Integer> onItsOwnThread(java.util.concurrent.Callable<Integer> client) {
    CompletableFuture<Integer> result = new CompletableFuture<>();
    new Thread(() -> {
      try {
        result.complete(client.call());
      } catch (Throwable e) {
        result.completeExceptionally(e);
      }
    }, "client").start();
    return result;
  }

  @Test
  void fourClientsStartingAtOnceEndWithOneSessionAndNoOtherApplication() throws Exception {
    String session = "race";
    CyclicBarrier together = new CyclicBarrier(4);
    List<CompletableFuture<Integer>> clients = new ArrayList<>();
    for (int c = 0; c < 4; c++) {
      clients.add(onItsOwnThread(() -> {
        together.await(2, TimeUnit.MINUTES);
        return ToolRunner.run(conf(session), new SleepJob(), new String[] {"-m", "2", "-r", "1", "-mt", "10", "-rt", "10"});
      }));
    }
    try {
      for (int c = 0; c < 4; c++) {
        assertEquals(0, clients.get(c).get(5, TimeUnit.MINUTES), "client " + c + "'s sleep job");
      }
      List<ApplicationReport> all = applications(session);
      assertEquals(1, all.size(), "applications of session " + session + " ever submitted: " + all);
      assertEquals(YarnApplicationState.RUNNING, all.get(0).getYarnApplicationState());
      assertLogsTellTheStory(all.get(0).getApplicationId().toString());
    } finally {
      SessionClient.stop(conf(session), session);
    }
  }

  /** The master's syslog tells the jobs' story, and the executors' their attempts'. */
  private static void assertLogsTellTheStory(String application) throws IOException {
    List<java.nio.file.Path> syslogs = SessionLogs.syslogs(SharedCluster.cluster(), application);
    String master = "";
    String executors = "";
    for (java.nio.file.Path syslog : syslogs) {
      String text = Files.readString(syslog, StandardCharsets.UTF_8);
      if (SessionLogs.isMasters(syslog)) {
        master += text;
      } else {
        executors += text;
      }
    }
    assertTrue(master.contains("INFO") && master.contains(" submitted by ") && master.contains(" ended SUCCEEDED after ")
        && master.contains("Executor 1 joined"), "the master's syslog (" + syslogs + "):\n" + master);
    assertTrue(executors.contains("Task attempt attempt_") && executors.contains(" succeeded in "),
        "the executors' syslogs:\n" + executors);
    assertFalse(master.contains("no longer holds it"), "no attempt taken off a live executor that held it:\n" + master);
  }

  @Test
  void everyExecutorKilledAsTheReducesStartCostsOnlyTheirWork() throws Exception {
    String session = "reduces";
    Path input = new Path("/reliability/rows");
    Path reference = new Path("/reliability/sorted-embedded");
    Path output = new Path("/reliability/sorted-session");
    assertEquals(0, ToolRunner.run(cluster.embeddedConf(), new TeraGen(), new String[] {"-D",
        "mapreduce.job.maps=4", "40000", input.toString()}));
    String[] sort = {"-D", "mapreduce.job.reduces=2", input.toString()};
    assertEquals(0, ToolRunner.run(cluster.embeddedConf(), new TeraSort(), withLast(sort, reference)));
    Configuration conf = conf(session);
    Cluster client = new Cluster(conf);
    try (AutoCloseable closing = client::close) {
      CompletableFuture<Integer> sorting = onItsOwnThread(() -> ToolRunner.run(conf, new TeraSort(),
          withLast(sort, output)));
      Job job = RunningJobs.runningJob(client);
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
      while (RunningJobs.succeededMaps(job) < 4 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      String application = SessionClient.list(conf).stream().filter(s -> SessionClient.sessionName(s).equals(session))
          .findFirst().orElseThrow().getApplicationId().toString();
      List<ProcessHandle> executors = ContainerProcesses.allJavaWith("io.vivace.cluster.executor.ExecutorMain",
          application);
      assertEquals(2, executors.size(), "the session's executors: " + executors);
      for (ProcessHandle executor : executors) {
        ContainerProcesses.kill(executor);
      }
      assertEquals(0, sorting.get(5, TimeUnit.MINUTES), "terasort's exit code");
    } finally {
      SessionClient.stop(conf, session);
    }
    Outputs.assertCommitted(fs, output, "terasort with every executor lost");
    Outputs.assertSameFiles(fs, reference, output, "terasort with every executor lost, against the embedded engine's");
  }

  @Test
  void aJobWhoseExecutorsCannotStartTellsItsClientWhy() throws Exception {
    String session = "starved";
    Configuration conf = conf(session);
    conf.setInt("vivace.session.executor.memory.mb", 16_384); // more than YARN gives a container here
    conf.setLong("vivace.session.wait.report.ms", 1000);
    StringWriter log = new StringWriter();
    WriterAppender appender = new WriterAppender(new PatternLayout("%m%n"), log);
    org.apache.log4j.Logger notes = org.apache.log4j.Logger.getLogger("io.vivace.cluster.client.WaitingNotes");
    notes.addAppender(appender);
    try {
      SleepJob sleep = new SleepJob();
      sleep.setConf(conf);
      Job job = sleep.createJob(1, 0, 10, 1, 10, 1);
      job.submit();
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
      while (!log.toString().contains(" waits: ") && System.nanoTime() < deadline) {
        job.getStatus(); // as the client's progress monitor does
        Thread.sleep(200);
      }
      String said = log.toString();
      assertTrue(said.contains("Job " + job.getJobID() + " waits: 1 tasks wait for a slot since ")
          && said.contains("no executor can start: the session's executors need 16384 MB"), said);
      job.killJob();
      assertEquals(JobStatus.State.KILLED, job.getStatus().getState());
    } finally {
      notes.removeAppender(appender);
      SessionClient.stop(conf, session);
    }
  }

  /** A mapper that takes ten minutes a record, unless it is stopped. */
  public static class SlowMapper extends Mapper<LongWritable, Text, LongWritable, Text> {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      Thread.sleep(TimeUnit.MINUTES.toMillis(10));
      context.write(key, value);
    }
  }

  @Test
  void stoppingTheSessionDuringAJobKillsItThroughItsCommitterAndTellsItsClient() throws Exception {
    String session = "stopped";
    Configuration conf = conf(session);
    Path input = new Path("/reliability/slow-input");
    try (FSDataOutputStream out = fs.create(new Path(input, "lines"))) {
      out.write("one\ntwo\n".getBytes(StandardCharsets.UTF_8));
    }
    Path watchedOutput = new Path("/reliability/slow-output-watched");
    Path unwatchedOutput = new Path("/reliability/slow-output-unwatched");
    Job watched = slowJob(conf, input, watchedOutput);
    Job unwatched = slowJob(conf, input, unwatchedOutput);
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (watched.getStatus().getState() == JobStatus.State.PREP && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    ApplicationReport report = SessionClient.list(conf).stream()
        .filter(s -> SessionClient.sessionName(s).equals(session)).findFirst().orElseThrow();
    String application = report.getApplicationId().toString();
    // one client polls while the session ends, as waitForCompletion does; the other looks only once it has
    // gone (SessionClient.stop returns when YARN says so), and reads its job's end in the application's report
    CompletableFuture<Boolean> watching = CompletableFuture.supplyAsync(() -> {
      try {
        return watched.waitForCompletion(false);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    assertTrue(SessionClient.stop(conf, session), "the session stops");
    assertFalse(watching.get(1, TimeUnit.MINUTES), "the watched job does not succeed");
    assertFalse(unwatched.waitForCompletion(false), "the unwatched job does not succeed");
    for (Job job : List.of(watched, unwatched)) {
      JobStatus status = job.getStatus();
      assertEquals(JobStatus.State.KILLED, status.getState(), job.getJobName());
      assertTrue(status.getFailureInfo().contains("the Vivace session is ending (stopped by "),
          job.getJobName() + ": " + status.getFailureInfo());
    }
    assertEquals(null, unwatched.getCounters(), "the unwatched job's end is read from YARN's report of the session");
    for (Path output : List.of(watchedOutput, unwatchedOutput)) {
      Outputs.assertNothingCommitted(fs, output, "a job of the stopped session");
      assertFalse(fs.exists(new Path(output, "_temporary")), "aborted: " + Outputs.listing(fs, output));
    }
    SessionSecretStore secrets = SessionSecretStore.forCluster(conf);
    String owner = report.getUser();
    assertFalse(fs.exists(secrets.path(owner, application)), "the session's secret is gone");
    assertFalse(fs.exists(new Path(secrets.folder(owner), application)), "the session's folder is gone");
    long gone = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (!ContainerProcesses.allJavaWith(application).isEmpty() && System.nanoTime() < gone) {
      Thread.sleep(200); // the executors end as the master tells them, YARN stops what is left
    }
    assertEquals(List.of(), ContainerProcesses.allJavaWith(application), "the session's processes are gone");
  }

  private static Job slowJob(Configuration conf, Path input, Path output) throws Exception {
    Job job = Job.getInstance(conf, "slow to " + output.getName());
    job.setJarByClass(SlowMapper.class);
    job.setMapperClass(SlowMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(LongWritable.class);
    job.setOutputValueClass(Text.class);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    job.submit();
    return job;
  }

  private static String[] withLast(String[] args, Path last) {
    String[] all = java.util.Arrays.copyOf(args, args.length + 1);
    all[args.length] = last.toString();
    return all;
  }
}
