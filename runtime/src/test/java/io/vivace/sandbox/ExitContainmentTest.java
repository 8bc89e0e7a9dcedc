package io.vivace.sandbox;

import static io.vivace.testing.JobFixtures.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.testing.JobFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code System.exit}, {@code Runtime.exit} and {@code Runtime.halt} in job code end only the attempt
 * (or the job step) that called them: on Hadoop they end the task's own JVM. If containment failed,
 * the test JVM itself would end, and the run with it.
 */
class ExitContainmentTest {

  @TempDir
  Path root;

  public static class ExitingMapper extends Mapper<LongWritable, Text, Text, Text> {
    @Override
    protected void map(LongWritable key, Text value, Context context) {
      System.exit(3);
    }
  }

  public static class HaltingMapper extends Mapper<LongWritable, Text, Text, Text> {
    @Override
    protected void map(LongWritable key, Text value, Context context) {
      Runtime.getRuntime().halt(6);
    }
  }

  /** Calls the exit from a thread of its own, then goes on reading and writing. */
  public static class ExitingInAThreadMapper extends Mapper<LongWritable, Text, Text, Text> {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      Thread thread = new Thread(() -> Runtime.getRuntime().exit(4));
      thread.start();
      thread.join();
      context.write(value, value);
    }
  }

  /** Swallows its own exit's error and carries on as if nothing happened. */
  public static class SwallowingExitMapper extends Mapper<LongWritable, Text, Text, Text> {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      try {
        System.exit(5);
      } catch (Throwable swallowed) {
        // what careless code does
      }
      context.write(value, value);
    }
  }

  public static class CopyMapper extends Mapper<LongWritable, Text, Text, Text> {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      context.write(value, new Text("ok"));
    }
  }

  private Job mapOnlyJob(Path jobRoot, Path input, Class<? extends Mapper<?, ?, ?, ?>> mapper) throws IOException {
    Configuration conf = JobFixtures.frameworkConf(jobRoot, VIVACE);
    conf.setInt("mapreduce.map.maxattempts", 2);
    Job job = Job.getInstance(conf, mapper.getSimpleName());
    job.setMapperClass(mapper);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    FileInputFormat.addInputPath(job, JobFixtures.hadoopPath(input));
    FileOutputFormat.setOutputPath(job, JobFixtures.hadoopPath(jobRoot.resolve("out")));
    return job;
  }

  private Path input() {
    return JobFixtures.writeInputLines(root.resolve("input/lines"), List.of("a", "b", "c"));
  }

  @Test
  void anExitFailsItsAttemptsAndJobWhileAHealthyJobBesideItSucceeds() throws Exception {
    Path input = input().getParent();
    Job exiting = mapOnlyJob(root.resolve("exiting"), input, ExitingMapper.class);
    Job healthy = mapOnlyJob(root.resolve("healthy"), input, CopyMapper.class);
    exiting.submit();
    healthy.submit();
    assertFalse(exiting.waitForCompletion(false));
    assertTrue(healthy.waitForCompletion(false), healthy.getStatus().getFailureInfo());

    assertEquals(JobStatus.State.FAILED, exiting.getJobState());
    String failure = exiting.getStatus().getFailureInfo();
    assertTrue(failure.matches("(?s).*task attempt_\\d+_\\d+_m_000000_1 called System\\.exit\\(3\\).*"), failure);
    assertEquals(2, exiting.getCounters().findCounter(org.apache.hadoop.mapreduce.JobCounter.NUM_FAILED_MAPS)
        .getValue(), "both attempts failed");
    assertFalse(Files.exists(root.resolve("exiting/out/_temporary")), "the failed job's output was aborted");
    assertEquals(List.of("a\tok", "b\tok", "c\tok"), JobFixtures.readPartLines(root.resolve("healthy/out")));
  }

  @Test
  void haltsExitsFromOtherThreadsAndSwallowedExitsFailTheAttempt() throws Exception {
    Path input = input().getParent();
    for (var expected : List.of(
        new Object[] {HaltingMapper.class, "called Runtime.halt(6)"},
        new Object[] {ExitingInAThreadMapper.class, "called Runtime.exit(4)"},
        new Object[] {SwallowingExitMapper.class, "called System.exit(5)"})) {
      @SuppressWarnings("unchecked")
      Class<? extends Mapper<?, ?, ?, ?>> mapper = (Class<? extends Mapper<?, ?, ?, ?>>) expected[0];
      Path jobRoot = root.resolve(mapper.getSimpleName());
      Job job = mapOnlyJob(jobRoot, input, mapper);
      assertFalse(job.waitForCompletion(false), mapper.getSimpleName() + " must fail");
      String failure = job.getStatus().getFailureInfo();
      assertTrue(failure.contains((String) expected[1]), mapper.getSimpleName() + ": " + failure);
      assertFalse(Files.exists(jobRoot.resolve("out")) && JobFixtures.partFileNames(jobRoot.resolve("out")).size() > 0,
          "nothing of " + mapper.getSimpleName() + " was committed");
    }
  }

  /** A committer whose job commit calls System.exit, as a careless "cleanup" might. */
  public static class ExitingCommitOutputFormat extends TextOutputFormat<Text, Text> {
    @Override
    public synchronized OutputCommitter getOutputCommitter(TaskAttemptContext context) throws IOException {
      return new FileOutputCommitter(getOutputPath(context), context) {
        @Override
        public void commitJob(JobContext jobContext) {
          System.exit(7);
        }
      };
    }
  }

  @Test
  void anExitInTheJobCommitFailsTheJob() throws Exception {
    Path jobRoot = root.resolve("commit");
    Job job = mapOnlyJob(jobRoot, input().getParent(), CopyMapper.class);
    job.setOutputFormatClass(ExitingCommitOutputFormat.class);
    assertFalse(job.waitForCompletion(false));
    String failure = job.getStatus().getFailureInfo();
    assertTrue(failure.matches("(?s)Job commit failed: .*job job_\\d+_\\d+ called System\\.exit\\(7\\).*"), failure);
  }
}
