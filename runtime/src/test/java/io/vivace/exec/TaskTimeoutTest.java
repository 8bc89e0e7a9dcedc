package io.vivace.exec;

import static io.vivace.testing.JobFixtures.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.testing.JobFixtures;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mapreduce.task.timeout} as Hadoop defines it, and stops that free capacity: an attempt
 * that reports no progress fails with Hadoop's message and is retried; one that ignores its
 * interrupt is abandoned and its slot given to a new worker; hung jobs never stop healthy ones.
 */
@Timeout(300)
class TaskTimeoutTest {

  /** Set to let the abandoned attempts' threads end once the test is over. */
  private static final String RELEASE = "vivace.test.timeout.release";

  @TempDir
  Path root;

  @AfterAll
  static void releaseAbandonedThreads() {
    System.setProperty(RELEASE, "true");
  }

  /** Hangs, and stops when interrupted. */
  public static class SleepingMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws InterruptedException {
      Thread.sleep(TimeUnit.HOURS.toMillis(1));
    }
  }

  /** Hangs, and ignores interrupts (until the test ends). */
  public static class DeafMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    @Override
    protected void map(LongWritable key, Text value, Context context) {
      while (!Boolean.getBoolean(RELEASE)) {
        try {
          Thread.sleep(200);
        } catch (InterruptedException ignored) {
          // deaf on purpose
        }
      }
    }
  }

  private Job job(String name, Path input, Class<? extends Mapper<?, ?, ?, ?>> mapper) throws IOException {
    Path jobRoot = root.resolve(name);
    Configuration conf = JobFixtures.frameworkConf(jobRoot, VIVACE);
    conf.setLong("mapreduce.task.timeout", 5000);
    conf.setInt("mapreduce.map.maxattempts", 2);
    Job job = Job.getInstance(conf, name);
    job.setMapperClass(mapper);
    job.setReducerClass(IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    FileInputFormat.addInputPath(job, JobFixtures.hadoopPath(input));
    FileOutputFormat.setOutputPath(job, JobFixtures.hadoopPath(jobRoot.resolve("out")));
    return job;
  }

  @Test
  @Tag("slow") // waits out real task timeouts
  void hungJobsTimeOutWhileHealthyJobsBesideThemSucceed() throws Exception {
    Path hungInput = JobFixtures.writeInputLines(root.resolve("hung-input/one"), List.of("x")).getParent();
    Path input = root.resolve("input");
    for (int f = 0; f < 3; f++) {
      JobFixtures.writeInputLines(input.resolve("f" + f), List.of("red green", "green blue", "blue red red"));
    }
    Job sleeping = job("sleeping", hungInput, SleepingMapper.class);
    Job deaf = job("deaf", hungInput, DeafMapper.class);
    sleeping.submit();
    deaf.submit();
    List<Job> healthy = new ArrayList<>();
    for (int j = 0; j < 4; j++) {
      Job job = job("healthy-" + j, input, TokenCounterMapper.class);
      job.submit();
      healthy.add(job);
    }
    for (Job job : healthy) {
      assertTrue(job.waitForCompletion(false), job.getJobName() + ": " + job.getStatus().getFailureInfo());
      assertEquals(List.of("blue\t6", "green\t6", "red\t9"),
          JobFixtures.readPartLines(root.resolve(job.getJobName()).resolve("out")));
    }
    for (Job hung : List.of(sleeping, deaf)) {
      assertFalse(hung.waitForCompletion(false), hung.getJobName() + " must fail");
      String failure = hung.getStatus().getFailureInfo();
      assertTrue(failure.matches("(?s).*Task attempt_\\d+_\\d+_m_000000_1 failed to report status for 5 seconds\\."
          + " Killing!.*"), hung.getJobName() + ": " + failure);
      assertEquals(2, hung.getCounters().findCounter(org.apache.hadoop.mapreduce.JobCounter.NUM_FAILED_MAPS)
          .getValue(), hung.getJobName() + ": both attempts timed out");
    }
    assertBothSlotsServeANewJob();
  }

  @Test
  void killingAJobWhoseTaskIgnoresInterruptsEndsItAndFreesTheSlot() throws Exception {
    Path hungInput = JobFixtures.writeInputLines(root.resolve("hung-input/one"), List.of("x")).getParent();
    Job deaf = job("deaf-killed", hungInput, DeafMapper.class);
    deaf.getConfiguration().setLong("mapreduce.task.timeout", 0); // only the kill may stop it
    deaf.submit();
    while (deaf.getTaskReports(TaskType.MAP)[0].getCurrentStatus() != org.apache.hadoop.mapred.TIPStatus.RUNNING) {
      Thread.sleep(10);
    }
    deaf.killJob();
    while (!deaf.isComplete()) {
      Thread.sleep(10);
    }
    assertEquals(JobStatus.State.KILLED, deaf.getJobState());
    assertBothSlotsServeANewJob();
  }

  /** Meets a second map running at the same time, through a latch kept in the JVM's properties. */
  public static class RendezvousMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    @Override
    protected void setup(Context context) throws InterruptedException {
      CountDownLatch both = (CountDownLatch) System.getProperties()
          .computeIfAbsent("vivace.test.rendezvous." + context.getJobID(), k -> new CountDownLatch(2));
      both.countDown();
      if (!both.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("no second slot ran beside this map");
      }
    }

    @Override
    protected void map(LongWritable key, Text value, Context context) {
    }
  }

  /** Two maps that can only finish together: the engine's two slots are both free again. */
  private void assertBothSlotsServeANewJob() throws Exception {
    Path input = root.resolve("two-maps");
    JobFixtures.writeInputLines(input.resolve("a"), List.of("a"));
    JobFixtures.writeInputLines(input.resolve("b"), List.of("b"));
    Job job = job("after-" + System.nanoTime(), input, RendezvousMapper.class);
    job.getConfiguration().setInt("mapreduce.map.maxattempts", 1);
    assertTrue(job.waitForCompletion(false), job.getStatus().getFailureInfo());
  }
}
