package io.vivace.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The sleep job runs the number of maps asked for, on Vivace and on Apache's local runner alike. */
class SplitKeepingSleepJobTest {

  @TempDir
  Path tmp;

  /**
   * Apache's LocalJobRunner removes a job's staging directory in its own thread, possibly after the
   * client saw the job finish; so staging lives outside {@code tmp}, removed best-effort afterwards.
   */
  private Path staging;

  @BeforeEach
  void createStaging() throws java.io.IOException {
    staging = java.nio.file.Files.createTempDirectory("vivace-test-staging");
  }

  @AfterEach
  void removeStaging() {
    org.apache.hadoop.fs.FileUtil.fullyDelete(staging.toFile());
  }

  @ParameterizedTest
  @ValueSource(strings = {"vivace", "local"})
  void runsTheRequestedNumberOfMaps(String framework) throws Exception {
    Configuration conf = new Configuration();
    conf.set("mapreduce.framework.name", framework);
    conf.set("hadoop.tmp.dir", tmp.toString());
    conf.set("mapreduce.jobtracker.staging.root.dir", staging.toString());
    conf.set("vivace.history.dir", tmp.resolve("history").toString());
    SplitKeepingSleepJob sleep = new SplitKeepingSleepJob();
    sleep.setConf(conf);
    Job job = sleep.createJob(7, 2, 1, 3, 1, 1);

    assertTrue(job.waitForCompletion(false), framework + " sleep job failed");
    assertEquals(7 * 3, job.getCounters().findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue(),
        framework + ": 7 maps of 3 records each");
  }
}
