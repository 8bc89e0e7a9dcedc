package io.vivace.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.testing.JobFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job's Vivace keys are checked when the engine receives it. */
class JobKeyCheckTest {

  @TempDir
  Path root;

  @Test
  void aValueNotOfItsKeysTypeFailsTheSubmissionNamingIt() throws Exception {
    Configuration conf = JobFixtures.frameworkConf(root, JobFixtures.VIVACE);
    conf.set("vivace.reduce.merge.thread", "yes");
    Job job = identityJob(conf, "bad value");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, job::submit);
    assertEquals("vivace.reduce.merge.thread=yes: expected true or false", e.getMessage());
    assertFalse(Files.exists(root.resolve("output")), "nothing ran");
  }

  @Test
  void anUndeclaredVivaceKeyIsReportedAndTheJobRuns() throws Exception {
    Configuration conf = JobFixtures.frameworkConf(root, JobFixtures.VIVACE);
    conf.set("vivace.reduce.merge.threads", "false");
    assertEquals(Set.of("vivace.reduce.merge.threads"), VivaceConf.check(conf));
    Job job = identityJob(conf, "undeclared key");
    assertTrue(job.waitForCompletion(false));
    assertEquals(List.of("0\tone"), Files.readAllLines(root.resolve("output/part-r-00000")));
  }

  private Job identityJob(Configuration conf, String name) throws Exception {
    Path input = JobFixtures.writeInputLines(root.resolve("input/one.txt"), List.of("one"));
    Job job = Job.getInstance(conf, name);
    FileInputFormat.addInputPath(job, JobFixtures.hadoopPath(input));
    FileOutputFormat.setOutputPath(job, JobFixtures.hadoopPath(root.resolve("output")));
    return job;
  }
}
