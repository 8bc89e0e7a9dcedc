package io.vivace.failure;

import static io.vivace.failure.FailureSupport.LOCAL;
import static io.vivace.failure.FailureSupport.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.util.Iterator;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.FileInputFormat;
import org.apache.hadoop.mapred.FileOutputFormat;
import org.apache.hadoop.mapred.InvalidInputException;
import org.apache.hadoop.mapred.JobClient;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.JobStatus;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.Mapper;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.RunningJob;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same failure paths through the old {@code mapred} API: {@code JobClient.runJob} throws
 * Hadoop's "Job failed!", a missing input is the old API's InvalidInputException, and
 * {@code RunningJob.killJob()} kills.
 */
@Timeout(120)
class OldApiFailureTest {

  static final AtomicInteger ATTEMPTS = new AtomicInteger();
  static volatile CountDownLatch started = new CountDownLatch(0);
  static volatile CountDownLatch release = new CountDownLatch(0);
  static final AtomicInteger INTERRUPTED = new AtomicInteger();

  @TempDir
  File root;

  @BeforeEach
  void reset() {
    ATTEMPTS.set(0);
    INTERRUPTED.set(0);
    release = new CountDownLatch(1);
  }

  @AfterEach
  void releaseStragglers() {
    release.countDown();
  }

  public static class ExplodingOldMapper extends MapReduceBase
      implements Mapper<LongWritable, Text, Text, IntWritable> {
    @Override
    public void configure(JobConf job) {
      ATTEMPTS.incrementAndGet();
    }

    @Override
    public void map(LongWritable key, Text value, OutputCollector<Text, IntWritable> out, Reporter reporter)
        throws IOException {
      out.collect(value, new IntWritable(1));
      throw new IOException("old-api mapper exploded on purpose");
    }
  }

  public static class BlockingOldMapper extends MapReduceBase
      implements Mapper<LongWritable, Text, Text, IntWritable> {
    @Override
    public void map(LongWritable key, Text value, OutputCollector<Text, IntWritable> out, Reporter reporter)
        throws IOException {
      out.collect(value, new IntWritable(1));
      started.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        INTERRUPTED.incrementAndGet();
        throw new java.io.InterruptedIOException("interrupted");
      }
    }
  }

  public static class CountOldReducer extends MapReduceBase
      implements Reducer<Text, IntWritable, Text, IntWritable> {
    @Override
    public void reduce(Text key, Iterator<IntWritable> values, OutputCollector<Text, IntWritable> out,
                       Reporter reporter) throws IOException {
      int n = 0;
      while (values.hasNext()) {
        n += values.next().get();
      }
      out.collect(key, new IntWritable(n));
    }
  }

  private JobConf jobConf(String framework, File in, File out) {
    JobConf conf = new JobConf(FailureSupport.conf(root, framework));
    conf.setJobName("old-api-" + framework);
    conf.setMapperClass(ExplodingOldMapper.class);
    conf.setReducerClass(CountOldReducer.class);
    conf.setOutputKeyClass(Text.class);
    conf.setOutputValueClass(IntWritable.class);
    conf.setNumReduceTasks(1);
    conf.setNumMapTasks(1); // the old API's FileInputFormat splits by this hint: one split, one map
    conf.setMaxMapAttempts(2);
    FileInputFormat.setInputPaths(conf, FailureSupport.path(in));
    FileOutputFormat.setOutputPath(conf, FailureSupport.path(out));
    return conf;
  }

  @Test
  void runJobThrowsHadoopsJobFailedForAFailingMapper() throws Exception {
    File in = FailureSupport.inputFiles(new File(root, "in"), 1, 3);
    String localMessage = null;
    for (String framework : new String[] {LOCAL, VIVACE}) {
      File out = new File(root, "out-" + framework);
      IOException e = assertThrows(IOException.class, () -> JobClient.runJob(jobConf(framework, in, out)));
      assertEquals(IOException.class, e.getClass(), framework);
      if (localMessage == null) {
        localMessage = e.getMessage();
      } else {
        assertEquals(localMessage, e.getMessage(), "the message of LocalJobRunner's runJob");
      }
      FailureSupport.assertNothingCommitted(out);
    }
    assertEquals("Job failed!", localMessage);
  }

  @Test
  void runningJobReportsTheFailure() throws Exception {
    File in = FailureSupport.inputFiles(new File(root, "in"), 1, 3);
    File out = new File(root, "out");
    JobConf conf = jobConf(VIVACE, in, out);
    JobClient client = new JobClient(conf);
    try {
      RunningJob job = client.submitJob(conf);
      job.waitForCompletion();
      assertFalse(job.isSuccessful());
      assertEquals(JobStatus.FAILED, job.getJobState());
      assertTrue(job.getFailureInfo().contains("old-api mapper exploded on purpose"), job.getFailureInfo());
      assertEquals(2, ATTEMPTS.get(), "the map was retried mapred.map.max.attempts times");
      FailureSupport.assertNothingCommitted(out);
    } finally {
      client.close();
    }
  }

  @Test
  void missingInputIsTheOldApisInvalidInputException() throws Exception {
    File missing = new File(root, "no-such-input");
    String localMessage = null;
    for (String framework : new String[] {LOCAL, VIVACE}) {
      JobConf conf = jobConf(framework, missing, new File(root, "out-" + framework));
      InvalidInputException e = assertThrows(InvalidInputException.class, () -> JobClient.runJob(conf));
      if (localMessage == null) {
        localMessage = e.getMessage();
      } else {
        assertEquals(localMessage, e.getMessage());
      }
    }
    assertEquals("Input path does not exist: " + FailureSupport.path(missing), localMessage);
  }

  @Test
  void runningJobKillStopsTheJob() throws Exception {
    File in = FailureSupport.inputFiles(new File(root, "in"), 1, 3);
    File out = new File(root, "out");
    JobConf conf = jobConf(VIVACE, in, out);
    conf.setMapperClass(BlockingOldMapper.class);
    started = new CountDownLatch(1);
    JobClient client = new JobClient(conf);
    try {
      RunningJob job = client.submitJob(conf);
      assertTrue(started.await(FailureSupport.HANG_GUARD_MILLIS, TimeUnit.MILLISECONDS), "the mapper started");
      job.killJob();
      job.waitForCompletion();
      assertEquals(JobStatus.KILLED, job.getJobState());
      assertFalse(job.isSuccessful());
      assertEquals(1, INTERRUPTED.get(), "the mapper was interrupted");
      FailureSupport.assertNothingCommitted(out);
    } finally {
      client.close();
    }
  }
}
