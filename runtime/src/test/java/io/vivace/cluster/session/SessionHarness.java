package io.vivace.cluster.session;

import io.vivace.conf.VivaceConf;
import io.vivace.scheduler.JobRun;
import io.vivace.testing.JobFixtures;
import io.vivace.testing.StagedJob;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.security.Credentials;

/**
 * A session's master without YARN: its real {@link SessionJobs} (Hadoop's job client protocol over
 * real {@link JobRun}s) and {@link Dispatcher}, with jobs staged on the local file system
 * ({@link StagedJob}) and executors played by the test ({@link FakeExecutor}).
 */
final class SessionHarness implements AutoCloseable {

  static final String CLUSTER = "1700000000000";

  final Path dir;
  final Configuration conf;
  final ExecutorService steps = Executors.newFixedThreadPool(2, SessionMaster.daemonThreads("test-step-"));
  final Dispatcher dispatcher;
  final SessionJobs jobs;
  private int nextJob = 1;

  SessionHarness(Path dir, long localityWaitMillis) {
    this(dir, localityWaitMillis, conf -> { });
  }

  /** A session whose master's configuration has {@code more} of the test's own settings. */
  SessionHarness(Path dir, long localityWaitMillis, java.util.function.Consumer<Configuration> more) {
    this.dir = dir;
    this.conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    conf.set(MRConfig.LOCAL_DIR, dir.resolve("am-local").toString());
    conf.set("vivace.session.history.dir", JobFixtures.hadoopPath(dir.resolve("history")).toString());
    conf.setLong("vivace.task.kill.grace.ms", 500);
    more.accept(conf);
    this.dispatcher = new Dispatcher(steps, localityWaitMillis, VivaceConf.getLong(conf, "vivace.session.prefetch.below.ms"),
        VivaceConf.getInt(conf, "vivace.session.read.ahead.executors"), new Locality(conf));
    this.jobs = new SessionJobs(conf, dispatcher, CLUSTER, dir.resolve("am-history").toFile());
  }

  /** Stages and submits a job: a map per entry of {@code mapHosts} (its input's hosts), {@code reduces} reduces. */
  JobRun submit(List<String[]> mapHosts, int reduces) throws IOException, InterruptedException {
    StagedJob staged = StagedJob.stage(dir, CLUSTER, nextJob++, mapHosts, reduces);
    jobs.submitJob(staged.id(), staged.submitDir().toString(), new Credentials());
    return jobs.job(staged.id());
  }

  /** {@code maps} maps whose input is anywhere. */
  JobRun submit(int maps, int reduces) throws IOException, InterruptedException {
    return submit(maps, reduces, job -> { });
  }

  /** {@code maps} maps whose input is anywhere, with {@code more} of the job's own settings. */
  JobRun submit(int maps, int reduces, java.util.function.Consumer<org.apache.hadoop.mapred.JobConf> more)
      throws IOException, InterruptedException {
    StagedJob staged = StagedJob.stage(dir, CLUSTER, nextJob++, java.util.Collections.nCopies(maps, new String[0]),
        reduces, more);
    jobs.submitJob(staged.id(), staged.submitDir().toString(), new Credentials());
    return jobs.job(staged.id());
  }

  static JobRun awaitEnd(JobRun job) throws InterruptedException {
    job.awaitCompletion(FakeExecutor.GUARD_MILLIS);
    if (!job.isComplete()) {
      throw new AssertionError(job.id() + " did not end: " + job.status());
    }
    return job;
  }

  static long counter(JobRun job, JobCounter counter) {
    return job.counters().findCounter(counter).getValue();
  }

  @Override
  public void close() throws InterruptedException {
    jobs.finishHistoryCopies(FakeExecutor.GUARD_MILLIS); // as the master's end does, before its folder goes
    dispatcher.shutDown();
    steps.shutdownNow();
    steps.awaitTermination(10, TimeUnit.SECONDS);
  }
}
