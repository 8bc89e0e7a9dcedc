package io.vivace.cluster.session;

import static io.vivace.cluster.session.SessionHarness.awaitEnd;
import static io.vivace.cluster.session.SessionHarness.counter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.executor.InJvmExecutor;
import io.vivace.scheduler.JobRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session's real executor ({@link InJvmExecutor}: its workers, job folders and shuffle server, in
 * this JVM) against the session's real dispatcher and jobs ({@link SessionHarness}), with Hadoop's
 * own mapper and reducer classes running the staged job.
 */
class SessionExecutorTest {

  /** The folder where {@link StubbornMapper} says it started and waits to be let go. */
  private static final String SIGNALS = "test.stubborn.signals";
  private static final long GUARD_MILLIS = 30_000;
  private static final long HOUR_NANOS = 3_600_000_000_000L;

  @TempDir
  Path dir;

  private Configuration executorConf() {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    conf.set(MRConfig.LOCAL_DIR, dir.resolve("executor-local").toString());
    conf.setLong("vivace.task.kill.grace.ms", 3_600_000); // never abandoned: it ends when it ends
    return conf;
  }

  @Test
  void aMapAttemptThatIgnoresBeingAskedToStopEndsKilledAndNeverReplacesTheOutputItsTaskCounts() throws Exception {
    Path signals = Files.createDirectories(dir.resolve("signals"));
    try (SessionHarness s = new SessionHarness(dir, 0)) {
      InJvmExecutor executor = InJvmExecutor.start(s.dispatcher, executorConf(), "container_1_0001_01_000002", 3);
      try {
        JobRun job = s.submit(2, 1, conf -> {
          conf.setClass(MRJobConfig.MAP_CLASS_ATTR, StubbornMapper.class, Mapper.class);
          conf.set(SIGNALS, signals.toString());
        });
        awaitFile(signals.resolve("started"));
        TaskAttemptID stubborn = new TaskAttemptID(new TaskID(job.id(), TaskType.MAP, 0), 0);
        assertTrue(job.killTask(stubborn, false), stubborn + " runs");
        // the session gives up on it before the executor does (as when the executor's monitor is
        // starved on a busy machine): its task runs again beside it, on the same executor, and counts
        assertEquals(1, s.dispatcher.giveUpOverdue(System.nanoTime() + 2 * HOUR_NANOS, HOUR_NANOS));
        awaitMapsDone(job, 1);
        Files.createFile(signals.resolve("release")); // the stubborn attempt goes on: killed at its first record
        awaitRunningMaps(s, 1); // only the second map's attempt runs
        Files.createFile(signals.resolve("go")); // the second map ends: the reduce fetches the first's output
        assertEquals(JobStatus.State.SUCCEEDED, awaitEnd(job).status().getState(), job.status().getFailureInfo());
        assertEquals(3, counter(job, JobCounter.TOTAL_LAUNCHED_MAPS), "the first map twice, the second once");
        assertEquals(1, counter(job, JobCounter.TOTAL_LAUNCHED_REDUCES), "the reduce found the counted output");
        assertEquals(1, counter(job, JobCounter.NUM_KILLED_MAPS), stubborn + " counts killed");
        List<String> lines = Files.readAllLines(outputOf(job), StandardCharsets.UTF_8);
        assertEquals(128, lines.size(), "the identity job's output: each map's 64 input lines once");
      } finally {
        s.dispatcher.shutDown();
        executor.awaitEnd();
      }
    }
  }

  private static void awaitMapsDone(JobRun job, int maps) throws InterruptedException {
    long deadline = System.nanoTime() + GUARD_MILLIS * 1_000_000L;
    while (job.status().getMapProgress() < maps / 2f && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertTrue(job.status().getMapProgress() >= maps / 2f, "maps done: " + job.status().getMapProgress());
  }

  private static void awaitRunningMaps(SessionHarness s, int maps) throws InterruptedException {
    long deadline = System.nanoTime() + GUARD_MILLIS * 1_000_000L;
    while (s.dispatcher.runningAttempts(true) != maps && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertEquals(maps, s.dispatcher.runningAttempts(true), "map attempts the executor runs");
  }

  private Path outputOf(JobRun job) throws IOException {
    Path output = dir.resolve("output").resolve(job.id().toString()).resolve("part-r-00000");
    assertTrue(Files.exists(output), output + " is committed");
    return output;
  }

  private static void awaitFile(Path file) throws InterruptedException {
    long deadline = System.nanoTime() + GUARD_MILLIS * 1_000_000L;
    while (!Files.exists(file) && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertTrue(Files.exists(file), file + " never appeared");
  }

  /**
   * Hadoop's identity mapper, but the first map's first attempt says it started and then ignores
   * being asked to stop until the test releases it, as user code that swallows interrupts does; the
   * second map waits for the test's go.
   */
  public static class StubbornMapper extends Mapper<LongWritable, Text, LongWritable, Text> {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      Path signals = Paths.get(context.getConfiguration().get(SIGNALS));
      if (context.getTaskAttemptID().getTaskID().getId() == 1) {
        while (!Files.exists(signals.resolve("go"))) {
          Thread.sleep(10);
        }
      } else if (context.getTaskAttemptID().getId() == 0) {
        Files.createFile(signals.resolve("started"));
        while (!Files.exists(signals.resolve("release"))) {
          try {
            Thread.sleep(10);
          } catch (InterruptedException e) {
            // asked to stop: ignored
          }
        }
      }
    }
  }
}
