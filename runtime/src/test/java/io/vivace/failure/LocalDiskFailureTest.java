package io.vivace.failure;

import static io.vivace.failure.FailureSupport.LOCAL;
import static io.vivace.failure.FailureSupport.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local disk under {@code mapreduce.cluster.local.dir} failing: full in the middle of a spill
 * (a 2 MB tmpfs; needs root with CAP_SYS_ADMIN, otherwise skipped), or unusable from the start (a
 * path through a regular file, which even root cannot create).
 */
@Timeout(120)
class LocalDiskFailureTest {

  @TempDir
  File root;

  /** ~6 MB of map output: at io.sort.mb=1 it spills repeatedly, more than a 2 MB disk holds. */
  public static class BigOutputMapper extends Mapper<LongWritable, Text, Text, Text> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      Text key = new Text();
      Text value = new Text("x".repeat(90));
      for (int i = 0; i < 60_000; i++) {
        key.set(String.format("k%07d", (i * 7919) % 60_000));
        context.write(key, value);
      }
    }
  }

  private static int exec(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return -1;
      }
      return p.exitValue();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static void unmount(File mountPoint) {
    if (exec("umount", mountPoint.getAbsolutePath()) != 0) {
      exec("umount", "-l", mountPoint.getAbsolutePath());
    }
  }

  @Test
  void diskFullDuringSpillFailsTheJobAndRemovesItsSpills() throws Exception {
    File disk = new File(root, "small-disk");
    assertTrue(disk.mkdirs());
    boolean mounted = exec("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", disk.getAbsolutePath()) == 0;
    assumeTrue(mounted, "cannot mount a 2 MB tmpfs here (needs root with CAP_SYS_ADMIN, e.g. not in an "
        + "unprivileged container): the disk-full-mid-spill case is skipped; the unusable-local-dir "
        + "tests still run");
    try {
      Configuration conf = FailureSupport.conf(root, VIVACE);
      conf.set(MRConfig.LOCAL_DIR, disk.getAbsolutePath());
      conf.setInt("mapreduce.task.io.sort.mb", 1);
      conf.setInt("mapreduce.map.maxattempts", 2);
      File in = FailureSupport.inputFiles(new File(root, "in"), 1, 1);
      File out = new File(root, "out");
      Job job = FailureSupport.wordCount(conf, "disk-full", in, out, 1);
      job.setMapperClass(BigOutputMapper.class);
      job.setMapOutputValueClass(Text.class);
      job.setOutputValueClass(Text.class);

      assertFalse(job.waitForCompletion(false), "the job must fail when its local disk is full");
      assertEquals(JobStatus.State.FAILED, job.getJobState());
      String info = job.getStatus().getFailureInfo();
      assertTrue(info.contains("No space left on device"), "failure names the cause: " + info);
      List<TaskCompletionEvent> failed = FailureSupport.events(job, true, TaskCompletionEvent.Status.FAILED);
      assertEquals(2, failed.size(), "the map was retried: " + failed);
      assertTrue(info.contains(failed.get(1).getTaskAttemptId().toString()), info);
      FailureSupport.assertNothingCommitted(out);
      FailureSupport.assertNoLocalFiles(conf, job.getJobID());
      List<String> left = FailureSupport.regularFiles(disk);
      assertTrue(left.isEmpty(), "spill files left on the full disk: " + left);

      // the space came back: a job using the same local disk runs
      File out2 = new File(root, "out2");
      Job next = FailureSupport.wordCount(conf, "after-disk-full", FailureSupport.inputFiles(
          new File(root, "in2"), 2, 10), out2, 1);
      assertTrue(next.waitForCompletion(false), () -> FailureSupport.failureInfo(next));
      FailureSupport.assertOutput(FailureSupport.expectedWordCounts(2, 10), out2);
    } finally {
      unmount(disk);
    }
  }

  /** A local dir below a regular file: nothing can be created there, not even by root. */
  private File unusableLocalDir() throws IOException {
    File file = new File(root, "a-regular-file");
    Files.writeString(file.toPath(), "not a directory");
    return new File(file, "local");
  }

  @Test
  void unusableLocalDirFailsSubmissionClearly() throws Exception {
    File badDir = unusableLocalDir();
    Configuration conf = FailureSupport.conf(root, VIVACE);
    conf.set(MRConfig.LOCAL_DIR, badDir.getAbsolutePath());
    File in = FailureSupport.inputFiles(new File(root, "in"), 1, 5);
    File out = new File(root, "out");
    Job job = FailureSupport.wordCount(conf, "bad-local-dir", in, out, 1);

    IOException e = assertThrows(IOException.class, job::submit);
    String message = e.getMessage();
    assertTrue(message.contains(badDir.getAbsolutePath()), "names the directory: " + message);
    assertTrue(message.contains(MRConfig.LOCAL_DIR), "names the setting: " + message);
    FailureSupport.assertNothingCommitted(out);
    List<String> staging = FailureSupport.regularFiles(new File(root, "staging"));
    assertTrue(staging.isEmpty(), "staging files left: " + staging);

    // the engine is unharmed: the same job with a usable local dir runs
    Configuration good = FailureSupport.conf(root, VIVACE);
    Job retry = FailureSupport.wordCount(good, "good-local-dir", in, out, 1);
    assertTrue(retry.waitForCompletion(false), () -> FailureSupport.failureInfo(retry));
    FailureSupport.assertOutput(FailureSupport.expectedWordCounts(1, 5), out);
  }

  /**
   * LocalJobRunner also refuses the job at submission with an IOException (its own is the local
   * file system's ParentNotDirectoryException; Vivace's names the directory and the setting).
   */
  @Test
  void unusableLocalDirFailsSubmissionOnLocalJobRunnerToo() throws Exception {
    Configuration conf = FailureSupport.conf(root, LOCAL);
    conf.set(MRConfig.LOCAL_DIR, unusableLocalDir().getAbsolutePath());
    File in = FailureSupport.inputFiles(new File(root, "in"), 1, 5);
    File out = new File(root, "out");
    Job job = FailureSupport.wordCount(conf, "bad-local-dir-local", in, out, 1);
    Throwable e = assertThrows(Throwable.class, () -> {
      job.submit();
      job.waitForCompletion(false);
      if (!job.isSuccessful()) {
        throw new IllegalStateException("failed after submission: " + job.getStatus().getFailureInfo());
      }
    });
    assertInstanceOf(IOException.class, e, "LocalJobRunner's failure: " + e);
  }
}
