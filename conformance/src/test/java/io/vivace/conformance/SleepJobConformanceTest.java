package io.vivace.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.SleepJob;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * SleepJob ({@code -m 20 -r 2 -mt 1 -rt 1}) from the jobclient tests jar.
 *
 * <p>SleepInputFormat makes one split per {@code mapreduce.job.maps}; each map reads one record
 * and emits {@code reduces} keys (0 and 1), one per reducer. Apache's local runner forces one map,
 * so the map count is checked against the framework under test only.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SleepJobConformanceTest {

  private static final int MAPS = 20;
  private static final int REDUCES = 2;

  /** The command-line path: {@code ToolRunner.run(new SleepJob(), args)}. */
  @Test
  void sleepJobTool(@TempDir Path tmp) throws Exception {
    String fut = Frameworks.underTest();
    Runs.Result run = Runs.tool(fut, tmp.resolve("scratch"), new SleepJob(),
        "-m", Integer.toString(MAPS), "-r", Integer.toString(REDUCES), "-mt", "1", "-rt", "1")
        .assertSucceeded();
    check("SleepJob tool on " + fut, run.counters(), Frameworks.expectedMaps(fut, MAPS));
  }

  /** The Job API path: {@code createJob(...)} then {@code waitForCompletion}. */
  @Test
  void sleepJobCreateJob(@TempDir Path tmp) throws Exception {
    String fut = Frameworks.underTest();
    SleepJob sleep = new SleepJob();
    sleep.setConf(Frameworks.conf(fut, tmp.resolve("scratch")));
    // What "-m 20 -r 2 -mt 1 -rt 1" makes of it: ceil(1 ms / 100 ms per record) = 1 record.
    Job job = sleep.createJob(MAPS, REDUCES, 1, 1, 1, 1);
    assertTrue(job.waitForCompletion(true), "SleepJob on " + fut + " failed");
    assertTrue(job.isSuccessful());
    assertEquals(JobStatus.State.SUCCEEDED, job.getJobState());
    check("SleepJob.createJob on " + fut, job.getCounters(), Frameworks.expectedMaps(fut, MAPS));
  }

  /** Pins the reference behaviour the suite relies on: Apache's local runner runs one map. */
  @Test
  void localJobRunnerForcesOneMap(@TempDir Path tmp) throws Exception {
    SleepJob sleep = new SleepJob();
    sleep.setConf(Frameworks.conf(Frameworks.REFERENCE, tmp.resolve("scratch")));
    Job job = sleep.createJob(MAPS, REDUCES, 1, 1, 1, 1);
    assertTrue(job.waitForCompletion(false));
    assertEquals(1, CounterChecks.value(job.getCounters(), TaskCounter.MAP_INPUT_RECORDS),
        "LocalJobRunner (mapreduce.job.maps is reset to 1 by LocalClientProtocolProvider)");
  }

  private static void check(String what, Counters c, int maps) {
    assertEquals(maps, CounterChecks.value(c, TaskCounter.MAP_INPUT_RECORDS),
        what + ": map input records = number of maps run");
    long launched = CounterChecks.value(c, JobCounter.TOTAL_LAUNCHED_MAPS);
    // Apache's local runner does not report JobCounters; a framework that does must agree.
    if (launched != 0) {
      assertEquals(maps, launched, what + ": TOTAL_LAUNCHED_MAPS");
    }
    long launchedReduces = CounterChecks.value(c, JobCounter.TOTAL_LAUNCHED_REDUCES);
    if (launchedReduces != 0) {
      assertEquals(REDUCES, launchedReduces, what + ": TOTAL_LAUNCHED_REDUCES");
    }
    assertEquals((long) maps * REDUCES, CounterChecks.value(c, TaskCounter.MAP_OUTPUT_RECORDS),
        what + ": map output records");
    assertEquals((long) maps * REDUCES, CounterChecks.value(c, TaskCounter.REDUCE_INPUT_RECORDS),
        what + ": reduce input records");
    assertEquals(REDUCES, CounterChecks.value(c, TaskCounter.REDUCE_INPUT_GROUPS),
        what + ": reduce input groups (keys 0..reduces-1)");
    assertEquals(0, CounterChecks.value(c, TaskCounter.REDUCE_OUTPUT_RECORDS),
        what + ": reduce output records");
  }
}
