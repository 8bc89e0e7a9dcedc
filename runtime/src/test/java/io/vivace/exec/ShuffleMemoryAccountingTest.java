package io.vivace.exec;

import static io.vivace.testing.JobFixtures.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.engine.Engine;
import io.vivace.scheduler.JobRun;
import io.vivace.testing.JobFixtures.FinishedJob;
import io.vivace.testing.JobFixtures;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Map outputs kept on the heap are charged to the engine's shared shuffle budget; whatever
 * happens to the attempts that produced them, every byte must be given back once the job is over.
 */
class ShuffleMemoryAccountingTest {

  @TempDir
  java.nio.file.Path root;

  /** The engine's budget, once every job other tests may have left behind has ended. */
  private static ShuffleMemoryHolder memory(Configuration conf) throws InterruptedException {
    Engine engine = Engine.get(conf);
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    while (!engine.jobs().stream().allMatch(JobRun::isComplete) && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    return new ShuffleMemoryHolder(engine.shuffleMemory());
  }

  /** Reads the engine's budget; the engine is shared by every job of the JVM. */
  record ShuffleMemoryHolder(io.vivace.shuffle.ShuffleMemory memory) {
    long used() {
      return memory.used();
    }
  }

  private java.nio.file.Path input() {
    java.nio.file.Path input = root.resolve("input");
    for (int f = 0; f < 3; f++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        lines.add("w" + (i % 41) + " v" + (i % 7) + " f" + f);
      }
      JobFixtures.writeInputLines(input.resolve("in" + f), lines);
    }
    return input;
  }

  private static Job wordCount(Configuration conf, Path in, Path out) throws IOException {
    Job job = Job.getInstance(conf, "shuffle memory");
    job.setMapperClass(TokenCounterMapper.class);
    job.setReducerClass(IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(2);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }

  @Test
  void successfulJobGivesBackEveryByte() throws Exception {
    ShuffleMemoryHolder memory = memory(JobFixtures.frameworkConf(root, VIVACE));
    long before = memory.used();
    FinishedJob job = JobFixtures.runNewApiJob(VIVACE, root, input(), ShuffleMemoryAccountingTest::wordCount);
    assertTrue(job.succeeded());
    assertEquals(before, memory.used());
  }

  /** A committer that wants to commit map attempts too, and fails to for their first attempt. */
  public static class FailingMapCommitCommitter extends FileOutputCommitter {
    public FailingMapCommitCommitter(Path output, TaskAttemptContext context) throws IOException {
      super(output, context);
    }

    @Override
    public boolean needsTaskCommit(TaskAttemptContext context) throws IOException {
      return context.getTaskAttemptID().getTaskType() == TaskType.MAP || super.needsTaskCommit(context);
    }

    @Override
    public void commitTask(TaskAttemptContext context) throws IOException {
      if (context.getTaskAttemptID().getTaskType() == TaskType.MAP) {
        if (context.getTaskAttemptID().getId() == 0) {
          throw new IOException("map commit fails on purpose");
        }
        return;
      }
      super.commitTask(context);
    }
  }

  /** Text output with {@link FailingMapCommitCommitter}. */
  public static class FailingMapCommitOutputFormat extends TextOutputFormat<Text, IntWritable> {
    private OutputCommitter committer;

    @Override
    public synchronized OutputCommitter getOutputCommitter(TaskAttemptContext context) throws IOException {
      if (committer == null) {
        committer = new FailingMapCommitCommitter(getOutputPath(context), context);
      }
      return committer;
    }
  }

  @Test
  void mapAttemptFailingAfterItsOutputWasBufferedGivesItBack() throws Exception {
    ShuffleMemoryHolder memory = memory(JobFixtures.frameworkConf(root, VIVACE));
    long before = memory.used();
    FinishedJob job = JobFixtures.runNewApiJob(VIVACE, root, input(), (conf, in, out) -> {
      Job j = wordCount(conf, in, out);
      j.setOutputFormatClass(FailingMapCommitOutputFormat.class);
      return j;
    });
    assertTrue(job.succeeded(), job.job().getStatus().getFailureInfo());
    assertEquals(3, job.counter(JobCounter.NUM_FAILED_MAPS), "each map's first commit failed");
    List<String> lines = new ArrayList<>(job.lines());
    lines.sort(null);
    assertEquals(41 + 7 + 3, lines.size());
    assertEquals(before, memory.used(), "the failed attempts' in-memory outputs were never released");
  }
}
