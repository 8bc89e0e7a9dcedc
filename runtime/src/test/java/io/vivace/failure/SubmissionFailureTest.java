package io.vivace.failure;

import static io.vivace.failure.FailureSupport.LOCAL;
import static io.vivace.failure.FailureSupport.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.FileAlreadyExistsException;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.lib.input.InvalidInputException;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Jobs that are wrong before any task runs (missing input, existing output, unknown framework,
 * classes that cannot be loaded): Vivace must fail them the way Hadoop does, with the same
 * exception type and message as Apache's LocalJobRunner.
 */
@Timeout(120)
class SubmissionFailureTest {

  @TempDir
  File root;

  private interface JobSetup {
    void configure(Job job) throws Exception;
  }

  /** Submits a job on {@code framework}; returns what {@code submit()} threw (fails if nothing). */
  private Throwable submitError(String framework, JobSetup setup) throws Exception {
    Configuration conf = FailureSupport.conf(root, framework);
    File in = FailureSupport.inputFiles(new File(root, "in"), 1, 3);
    Job job = FailureSupport.wordCount(conf, "submit-" + framework, in, new File(root, "out-" + framework), 1);
    setup.configure(job);
    Throwable thrown = assertThrows(Throwable.class, job::submit, "submission should fail on " + framework);
    assertStagingEmpty(framework);
    return thrown;
  }

  /** JobSubmitter removes the job's staging directory when submission fails. */
  private void assertStagingEmpty(String framework) {
    List<String> left = FailureSupport.regularFiles(new File(root, "staging"));
    assertTrue(left.isEmpty(), framework + " left staging files: " + left);
  }

  private static void assertSameFailure(Throwable local, Throwable vivace) {
    assertEquals(local.getClass(), vivace.getClass(), "exception type differs from LocalJobRunner's");
    assertEquals(local.getMessage(), vivace.getMessage(), "message differs from LocalJobRunner's");
    if (local.getCause() != null) {
      assertNotNull(vivace.getCause(), "LocalJobRunner's exception has a cause: " + local.getCause());
      assertEquals(local.getCause().getClass(), vivace.getCause().getClass());
      assertEquals(local.getCause().getMessage(), vivace.getCause().getMessage());
    }
  }

  @Test
  void missingInputPathFailsSubmissionLikeHadoop() throws Exception {
    File missing = new File(root, "no-such-input");
    JobSetup setup = job -> org.apache.hadoop.mapreduce.lib.input.FileInputFormat.setInputPaths(job,
        FailureSupport.path(missing));
    Throwable local = submitError(LOCAL, setup);
    Throwable vivace = submitError(VIVACE, setup);

    assertInstanceOf(InvalidInputException.class, vivace);
    assertEquals("Input path does not exist: " + FailureSupport.path(missing), vivace.getMessage());
    assertSameFailure(local, vivace);
    assertFalse(new File(root, "out-" + VIVACE).exists(), "no output directory for a job never submitted");
  }

  @Test
  void existingOutputDirectoryFailsSubmissionLikeHadoop() throws Exception {
    File out = new File(root, "existing-out");
    assertTrue(new File(out, "keep").mkdirs());
    JobSetup setup = job -> org.apache.hadoop.mapreduce.lib.output.FileOutputFormat.setOutputPath(job,
        FailureSupport.path(out));
    Throwable local = submitError(LOCAL, setup);
    Throwable vivace = submitError(VIVACE, setup);

    assertInstanceOf(FileAlreadyExistsException.class, vivace);
    assertEquals("Output directory " + FailureSupport.path(out) + " already exists", vivace.getMessage());
    assertSameFailure(local, vivace);
    assertTrue(new File(out, "keep").isDirectory(), "the existing output must be left alone");
  }

  @Test
  void unknownFrameworkNameIsHadoopsClusterInitialisationError() throws Exception {
    String expected = "Cannot initialize Cluster. Please check your configuration for "
        + "mapreduce.framework.name and the correspond server addresses.";
    Configuration conf = FailureSupport.conf(root, "nosuch");
    File in = FailureSupport.inputFiles(new File(root, "in"), 1, 3);
    File out = new File(root, "out");
    Job job = FailureSupport.wordCount(conf, "nosuch", in, out, 1);

    IOException viaJob = assertThrows(IOException.class, () -> job.waitForCompletion(false));
    assertEquals(IOException.class, viaJob.getClass());
    assertEquals(expected, viaJob.getMessage());
    IOException viaCluster = assertThrows(IOException.class, () -> new Cluster(conf));
    assertEquals(expected, viaCluster.getMessage());
    assertFalse(out.exists());
  }

  /** Client-side classes: JobSubmitter loads them itself, so the failure is the same for every framework. */
  @ParameterizedTest
  @ValueSource(strings = {"mapreduce.job.inputformat.class", "mapreduce.job.outputformat.class"})
  void unloadableClientSideClassFailsSubmissionLikeHadoop(String key) throws Exception {
    JobSetup setup = job -> job.getConfiguration().set(key, "no.such.Format");
    Throwable local = submitError(LOCAL, setup);
    Throwable vivace = submitError(VIVACE, setup);

    assertSameFailure(local, vivace);
    Throwable cnfe = vivace instanceof ClassNotFoundException ? vivace : vivace.getCause();
    assertInstanceOf(ClassNotFoundException.class, cnfe, "cause of " + vivace);
    assertEquals("Class no.such.Format not found", cnfe.getMessage());
  }

  /**
   * Task-side classes are loaded by the task, as Hadoop's MapTask/ReduceTask do: the attempts fail
   * with Hadoop's RuntimeException(ClassNotFoundException), are retried, and the job fails.
   */
  @ParameterizedTest
  @CsvSource({"mapreduce.job.map.class, 1", "mapreduce.job.combine.class, 1",
      "mapreduce.job.partitioner.class, 2", "mapreduce.job.reduce.class, 1"})
  void unloadableTaskClassFailsTheJob(String key, int reduces) throws Exception {
    String expected = hadoopClassLoadingError(key);
    boolean mapSide = !key.equals("mapreduce.job.reduce.class");

    for (String framework : new String[] {LOCAL, VIVACE}) {
      Configuration conf = FailureSupport.conf(root, framework);
      conf.setInt("mapreduce.map.maxattempts", 2);
      conf.setInt("mapreduce.reduce.maxattempts", 2);
      File in = FailureSupport.inputFiles(new File(root, "in"), 1, 3);
      File out = new File(root, "out-" + framework);
      Job job = FailureSupport.wordCount(conf, "unloadable-" + framework, in, out, reduces);
      job.getConfiguration().set(key, "no.such.Clazz");

      assertFalse(job.waitForCompletion(false), framework + ": the job must fail");
      assertEquals(JobStatus.State.FAILED, job.getJobState(), framework);
      FailureSupport.assertNothingCommitted(out);
      if (framework.equals(LOCAL)) {
        continue; // LocalJobRunner reports neither failure info nor events: only the outcome compares
      }
      String info = job.getStatus().getFailureInfo();
      assertTrue(info.contains(expected), "failure info should carry Hadoop's error '" + expected + "': " + info);
      List<TaskCompletionEvent> failed = FailureSupport.events(job, mapSide, TaskCompletionEvent.Status.FAILED);
      assertEquals(2, failed.size(), "attempts retried up to maxattempts: " + failed);
      TaskAttemptID last = failed.get(1).getTaskAttemptId();
      assertTrue(info.contains(last.getTaskID().toString()), "failure info names the task: " + info);
      String[] diagnostics = job.getTaskDiagnostics(last);
      assertTrue(diagnostics.length > 0 && String.join("\n", diagnostics).contains(expected),
          "task diagnostics carry the error: " + String.join("\n", diagnostics));
      FailureSupport.assertNoLocalFiles(conf, job.getJobID());
    }
  }

  /** Hadoop's map task uses no partitioner when there is one reduce, so an unloadable one is harmless. */
  @Test
  void unloadablePartitionerWithOneReduceIsNeverLoaded() throws Exception {
    File in = FailureSupport.inputFiles(new File(root, "in"), 2, 5);
    for (String framework : new String[] {LOCAL, VIVACE}) {
      Configuration conf = FailureSupport.conf(root, framework);
      File out = new File(root, "out-" + framework);
      Job job = FailureSupport.wordCount(conf, "partitioner-" + framework, in, out, 1);
      job.getConfiguration().set("mapreduce.job.partitioner.class", "no.such.Partitioner");
      assertTrue(job.waitForCompletion(false), framework + ": the job must succeed");
      FailureSupport.assertOutput(FailureSupport.expectedWordCounts(2, 5), out);
    }
  }

  /** What Hadoop's task code gets when it asks the job context for the class under {@code key}. */
  private String hadoopClassLoadingError(String key) throws Exception {
    Configuration conf = new Configuration(false);
    conf.set(key, "no.such.Clazz");
    JobContextImpl context = new JobContextImpl(conf, new org.apache.hadoop.mapreduce.JobID("x", 1));
    Throwable t = assertThrows(Throwable.class, () -> {
      switch (key) {
        case "mapreduce.job.map.class" -> context.getMapperClass();
        case "mapreduce.job.combine.class" -> context.getCombinerClass();
        case "mapreduce.job.partitioner.class" -> context.getPartitionerClass();
        default -> context.getReducerClass();
      }
    });
    assertInstanceOf(RuntimeException.class, t);
    assertInstanceOf(ClassNotFoundException.class, t.getCause());
    return t.toString();
  }
}
