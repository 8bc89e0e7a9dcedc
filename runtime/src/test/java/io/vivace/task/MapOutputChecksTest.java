package io.vivace.task;

import static io.vivace.testing.JobFixtures.VIVACE;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.testing.JobFixtures;
import io.vivace.testing.JobFixtures.FinishedJob;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Map output that Hadoop rejects must fail the task (and, with one attempt allowed, the job) with
 * Hadoop's diagnostics: a key of the wrong class, a partition out of range.
 */
class MapOutputChecksTest {

  @TempDir
  Path root;

  /** Emits LongWritable keys where the job declares Text. */
  public static class WrongKeyClassMapper extends Mapper<LongWritable, Text, Object, IntWritable> {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      context.write(key, new IntWritable(1));
    }
  }

  /** Partitions everything out of range. */
  public static class OutOfRangePartitioner extends Partitioner<Text, IntWritable> {
    @Override
    public int getPartition(Text key, IntWritable value, int partitions) {
      return partitions;
    }
  }

  /** Emits each line with a 1. */
  public static class LineMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      context.write(value, new IntWritable(1));
    }
  }

  private FinishedJob run(Class<? extends Mapper<?, ?, ?, ?>> mapper, Class<? extends Partitioner<?, ?>> partitioner)
      throws Exception {
    Path input = root.resolve("input");
    JobFixtures.writeInputLines(input.resolve("lines"), List.of("a", "b", "c"));
    return JobFixtures.runNewApiJob(VIVACE, root, input, (conf, in, out) -> {
      conf.setInt(MRJobConfig.MAP_MAX_ATTEMPTS, 1);
      Job job = Job.getInstance(conf, "bad map output");
      job.setMapperClass(mapper);
      if (partitioner != null) {
        job.setPartitionerClass(partitioner);
      }
      job.setReducerClass(IntSumReducer.class);
      job.setOutputKeyClass(Text.class);
      job.setOutputValueClass(IntWritable.class);
      job.setNumReduceTasks(2);
      FileInputFormat.addInputPath(job, in);
      FileOutputFormat.setOutputPath(job, out);
      return job;
    });
  }

  private static void assertFailedWith(FinishedJob job, String message) throws Exception {
    assertFalse(job.succeeded());
    String info = job.job().getStatus().getFailureInfo();
    assertTrue(info.contains(message), "failure info should name the cause: " + info);
    assertFalse(Files.exists(job.output().resolve("_SUCCESS")));
  }

  @Test
  void mapOutputKeyOfTheWrongClassFailsTheTask() throws Exception {
    assertFailedWith(run(WrongKeyClassMapper.class, null), "Type mismatch in key from map");
  }

  @Test
  void partitionOutOfRangeFailsTheTask() throws Exception {
    assertFailedWith(run(LineMapper.class, OutOfRangePartitioner.class), "Illegal partition");
  }
}
