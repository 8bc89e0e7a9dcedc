package io.vivace.sandbox;

import static io.vivace.testing.JobFixtures.LOCAL;
import static io.vivace.testing.JobFixtures.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.testing.JobFixtures;
import io.vivace.testing.JobFixtures.FinishedJob;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.StringTokenizer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Static fields of a job's classes, as Hadoop's JVM per task keeps them: never shared by tasks
 * that run at the same time, never by two jobs.
 */
class StaticStateIsolationTest {

  @TempDir
  Path root;

  static String failureOf(FinishedJob job) throws IOException, InterruptedException {
    return job.job().getStatus().getFailureInfo();
  }

  /** The pattern of many public jobs: the output key kept in a static field (safe on YARN). */
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

  private static Job staticKeyWordCount(org.apache.hadoop.conf.Configuration conf, org.apache.hadoop.fs.Path in,
                                        org.apache.hadoop.fs.Path out) throws IOException {
    Job job = Job.getInstance(conf, "word count, static key");
    job.setMapperClass(StaticKeyTokenizer.class);
    job.setCombinerClass(IntSumReducer.class);
    job.setReducerClass(IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }

  @Test
  void staticOutputKeyGivesApacheCountsWithSeveralSlots() throws Exception {
    Path input = root.resolve("input");
    Random random = new Random(16);
    for (int file = 0; file < 6; file++) {
      List<String> lines = new ArrayList<>();
      for (int line = 0; line < 20_000; line++) {
        StringBuilder text = new StringBuilder();
        for (int w = 0; w < 8; w++) {
          // words of different lengths: a key overwritten by a longer one shows up as garbage
          text.append("w").append("x".repeat(random.nextInt(12))).append(random.nextInt(50)).append(' ');
        }
        lines.add(text.toString());
      }
      JobFixtures.writeInputLines(input.resolve("part-" + file), lines);
    }
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, StaticStateIsolationTest::staticKeyWordCount);
    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root, input, (conf, in, out) -> {
      conf.setInt("mapreduce.local.map.tasks.maximum", 1);
      return staticKeyWordCount(conf, in, out);
    });
    assertTrue(vivace.succeeded(), failureOf(vivace));
    assertTrue(local.succeeded());
    assertEquals(local.parts(), vivace.parts(), "Vivace's output is Apache's, byte for byte");
  }

  /** Counts its own instances in a static field, after meeting a second map task running at once. */
  public static class InstanceCountingMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    private static int instances;

    @Override
    protected void setup(Context context) throws InterruptedException {
      instances++;
      // both maps must be running when they report: the latch lives in a framework object
      String key = "vivace.test.rendezvous." + context.getJobID();
      CountDownLatch met = (CountDownLatch) System.getProperties().computeIfAbsent(key, k -> new CountDownLatch(2));
      met.countDown();
      if (!met.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the second map never ran beside this one");
      }
    }

    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      context.write(new Text("instances seen by a map"), new IntWritable(instances));
    }
  }

  @Test
  void mapsRunningAtTheSameTimeHaveStaticsOfTheirOwn() throws Exception {
    Path input = root.resolve("input");
    JobFixtures.writeInputLines(input.resolve("a"), List.of("one line"));
    JobFixtures.writeInputLines(input.resolve("b"), List.of("one line"));
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, (conf, in, out) -> {
      Job job = Job.getInstance(conf, "static per task");
      job.setMapperClass(InstanceCountingMapper.class);
      job.setNumReduceTasks(0);
      job.setOutputKeyClass(Text.class);
      job.setOutputValueClass(IntWritable.class);
      FileInputFormat.addInputPath(job, in);
      FileOutputFormat.setOutputPath(job, out);
      return job;
    });
    assertTrue(vivace.succeeded(), failureOf(vivace));
    assertEquals(List.of("instances seen by a map\t1", "instances seen by a map\t1"), vivace.lines());
  }

  /** Reports the static its class had when the task started, then sets it. */
  public static class StaticSettingMapper extends Mapper<LongWritable, Text, Text, Text> {
    private static String setBy = "nobody";

    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      context.write(new Text("found"), new Text(setBy));
      setBy = context.getJobName();
    }
  }

  @Test
  void aSecondJobSeesItsClassesInitialStatics() throws Exception {
    Path input = root.resolve("input");
    JobFixtures.writeInputLines(input.resolve("a"), List.of("one line"));
    List<List<String>> outputs = new ArrayList<>();
    for (String name : List.of("first", "second")) {
      FinishedJob job = JobFixtures.runNewApiJob(VIVACE, root.resolve(name), input, (conf, in, out) -> {
        Job j = Job.getInstance(conf, name);
        j.setMapperClass(StaticSettingMapper.class);
        j.setNumReduceTasks(0);
        j.setOutputKeyClass(Text.class);
        j.setOutputValueClass(Text.class);
        FileInputFormat.addInputPath(j, in);
        FileOutputFormat.setOutputPath(j, out);
        return j;
      });
      assertTrue(job.succeeded(), failureOf(job));
      outputs.add(job.lines());
    }
    assertEquals(List.of(List.of("found\tnobody"), List.of("found\tnobody")), outputs);
  }
}
