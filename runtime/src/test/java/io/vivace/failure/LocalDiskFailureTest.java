package io.vivace.failure;

import static io.vivace.failure.FailureSupport.LOCAL;
import static io.vivace.failure.FailureSupport.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.testing.SmallDisk;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local disks under {@code mapreduce.cluster.local.dir}: several folders all take spills, a
 * small one that fills up (a tmpfs of 2 MB; needs root with CAP_SYS_ADMIN, otherwise skipped) is
 * passed over while another has room, and fails the job with the folder and the bytes it needed
 * when it is the only one; a folder unusable from the start (a path through a regular file, which
 * even root cannot create) is left out, or fails the submission when it is the only one. No job
 * leaves a file in any of them, whether it succeeds, fails or is killed.
 */
@Timeout(120)
class LocalDiskFailureTest {

  /** Map output records of {@link SpillingMapper}; 60,000 (default) are about 6 MB: at io.sort.mb=1, 7 spills. */
  static final String RECORDS = "test.records";
  static final String COUNTER_GROUP = "local dirs";

  @TempDir
  File root;

  /** Writes {@code test.records} records of ~100 bytes, keys in a scattered order. */
  public static class SpillingMapper extends Mapper<LongWritable, Text, Text, Text> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      int records = context.getConfiguration().getInt(RECORDS, 60_000);
      Text key = new Text();
      Text value = new Text();
      String filler = "x".repeat(80);
      for (int i = 0; i < records; i++) {
        int k = (int) ((i * 7919L) % records);
        key.set(String.format("k%07d", k));
        value.set("v" + k + "-" + context.getTaskAttemptID().getTaskID().getId() + filler);
        context.write(key, value);
      }
      cleanup(context);
    }
  }

  /**
   * Counts, before its output is merged, the files its attempt has in each local dir
   * ({@code <dir>/vivace/<job id>/<attempt id>}): counter {@code dir<i>} of group "local dirs".
   */
  public static class CountingMapper extends SpillingMapper {
    @Override
    protected void cleanup(Context context) {
      String[] dirs = context.getConfiguration().getTrimmedStrings(MRConfig.LOCAL_DIR);
      for (int i = 0; i < dirs.length; i++) {
        String[] names = new File(dirs[i], "vivace/" + context.getJobID() + "/" + context.getTaskAttemptID()).list();
        context.getCounter(COUNTER_GROUP, "dir" + i).increment(names == null ? 0 : names.length);
      }
    }
  }

  /** Fails after its spills. */
  public static class FailingMapper extends SpillingMapper {
    @Override
    protected void cleanup(Context context) throws IOException {
      throw new IOException("failing on purpose after spilling");
    }
  }

  /** Blocks after its spills until interrupted (killed). */
  public static class BlockingMapper extends SpillingMapper {
    @Override
    protected void cleanup(Context context) throws InterruptedException {
      while (true) {
        Thread.sleep(50);
      }
    }
  }

  private Configuration conf(File... localDirs) {
    Configuration conf = FailureSupport.conf(root, VIVACE);
    List<String> dirs = new ArrayList<>();
    for (File d : localDirs) {
      dirs.add(d.getAbsolutePath());
    }
    conf.set(MRConfig.LOCAL_DIR, String.join(",", dirs));
    conf.setInt("mapreduce.task.io.sort.mb", 1);
    return conf;
  }

  /** A job of {@code maps} {@code mapper}s (one record of input each) and one identity reduce. */
  private Job spillingJob(Configuration conf, String name, Class<? extends SpillingMapper> mapper, int maps)
      throws IOException {
    Job job = Job.getInstance(conf, name);
    job.setMapperClass(mapper);
    job.setReducerClass(Reducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setNumReduceTasks(1);
    FileInputFormat.addInputPath(job, FailureSupport.path(FailureSupport.inputFiles(new File(root, "in-" + name), maps, 1)));
    FileOutputFormat.setOutputPath(job, FailureSupport.path(new File(root, "out-" + name)));
    return job;
  }

  private static File out(Job job) {
    return new File(FileOutputFormat.getOutputPath(job).toUri().getPath());
  }

  /** Not only no files: the job's folder itself is gone from every local dir. */
  private static void assertNothingLeft(Configuration conf, JobID id) {
    FailureSupport.assertNoLocalFiles(conf, id);
    for (File dir : FailureSupport.jobLocalDirs(conf, id)) {
      assertFalse(dir.exists(), "job folder left: " + FailureSupport.listRecursively(dir));
    }
  }

  @Test
  void aSmallDiskBesideARoomyOneGivesTheOutputOfARunWithoutIt() throws Exception {
    File roomy = new File(root, "roomy");
    Job reference = spillingJob(conf(roomy), "reference", SpillingMapper.class, 2);
    assertTrue(reference.waitForCompletion(false), () -> FailureSupport.failureInfo(reference));

    try (SmallDisk small = SmallDisk.mount(new File(root, "small-disk"), "2m")) {
      Configuration conf = conf(small.dir(), roomy);
      Job job = spillingJob(conf, "small-and-roomy", SpillingMapper.class, 2);
      assertTrue(job.waitForCompletion(false), () -> FailureSupport.failureInfo(job));
      List<String> expected = FailureSupport.readOutput(out(reference));
      assertEquals(120_000, expected.size());
      assertEquals(expected, FailureSupport.readOutput(out(job)));
      assertNothingLeft(conf, job.getJobID());
    }
  }

  @Test
  void aFullDiskAloneFailsTheJobNamingItAndTheBytesNeeded() throws Exception {
    try (SmallDisk small = SmallDisk.mount(new File(root, "small-disk"), "2m")) {
      File disk = small.dir();
      Configuration conf = conf(disk);
      conf.setInt("mapreduce.map.maxattempts", 2);
      Job job = spillingJob(conf, "disk-full", SpillingMapper.class, 1);

      assertFalse(job.waitForCompletion(false), "the job must fail when its local disk is full");
      assertEquals(JobStatus.State.FAILED, job.getJobState());
      String info = job.getStatus().getFailureInfo();
      assertTrue(info.contains(new File(disk, "vivace/" + job.getJobID()).getPath()), "names the folder: " + info);
      assertTrue(info.contains(MRConfig.LOCAL_DIR), "names the setting: " + info);
      assertTrue(Pattern.compile("needs (about|at least) [0-9,]+ bytes").matcher(info).find(),
          "says the bytes needed: " + info);
      assertTrue(info.contains("No space left on device"), "and the disk's own error: " + info);
      List<TaskCompletionEvent> failed = FailureSupport.events(job, true, TaskCompletionEvent.Status.FAILED);
      assertEquals(2, failed.size(), "the map was retried: " + failed);
      assertTrue(info.contains(failed.get(1).getTaskAttemptId().toString()), info);
      FailureSupport.assertNothingCommitted(out(job));
      assertNothingLeft(conf, job.getJobID());
      List<String> left = FailureSupport.regularFiles(disk);
      assertTrue(left.isEmpty(), "spill files left on the full disk: " + left);

      // the space came back: a job using the same local disk runs
      File out2 = new File(root, "out2");
      Job next = FailureSupport.wordCount(conf, "after-disk-full", FailureSupport.inputFiles(
          new File(root, "in2"), 2, 10), out2, 1);
      assertTrue(next.waitForCompletion(false), () -> FailureSupport.failureInfo(next));
      FailureSupport.assertOutput(FailureSupport.expectedWordCounts(2, 10), out2);
    }
  }

  @Test
  void everyLocalDirTakesSpillsInTurn() throws Exception {
    File[] dirs = {new File(root, "disk0"), new File(root, "disk1"), new File(root, "disk2")};
    Configuration conf = conf(dirs);
    conf.setInt(RECORDS, 40_000); // 5 spills at least
    Job job = spillingJob(conf, "three-disks", CountingMapper.class, 1);
    assertTrue(job.waitForCompletion(false), () -> FailureSupport.failureInfo(job));

    long[] files = new long[dirs.length];
    for (int i = 0; i < dirs.length; i++) {
      files[i] = job.getCounters().findCounter(COUNTER_GROUP, "dir" + i).getValue();
    }
    long min = Math.min(files[0], Math.min(files[1], files[2]));
    long max = Math.max(files[0], Math.max(files[1], files[2]));
    assertTrue(min >= 1 && max - min <= 1, "spills per local dir, round robin: " + java.util.Arrays.toString(files));
    assertEquals(40_000, FailureSupport.readOutput(out(job)).size());
    assertNothingLeft(conf, job.getJobID());
  }

  @Test
  void aFailedJobLeavesNothingOnAnyLocalDir() throws Exception {
    Configuration conf = conf(new File(root, "disk0"), new File(root, "disk1"), new File(root, "disk2"));
    conf.setInt("mapreduce.map.maxattempts", 2);
    conf.setInt(RECORDS, 40_000);
    Job job = spillingJob(conf, "failing", FailingMapper.class, 2);
    assertFalse(job.waitForCompletion(false));
    assertEquals(JobStatus.State.FAILED, job.getJobState());
    assertTrue(job.getStatus().getFailureInfo().contains("failing on purpose"), FailureSupport.failureInfo(job));
    FailureSupport.assertNothingCommitted(out(job));
    assertNothingLeft(conf, job.getJobID());
  }

  @Test
  void aKilledJobLeavesNothingOnAnyLocalDir() throws Exception {
    Configuration conf = conf(new File(root, "disk0"), new File(root, "disk1"), new File(root, "disk2"));
    conf.setInt(RECORDS, 40_000);
    Job job = spillingJob(conf, "killed", BlockingMapper.class, 1);
    job.submit();
    try {
      List<File> dirs = FailureSupport.jobLocalDirs(conf, job.getJobID());
      FailureSupport.await("spills in every local dir", () -> dirs.stream().allMatch(d -> {
        File[] attempts = d.listFiles((parent, name) -> name.startsWith("attempt_"));
        return attempts != null && attempts.length > 0 && !FailureSupport.regularFiles(attempts[0]).isEmpty();
      }));
      job.killJob();
      assertFalse(FailureSupport.awaitJob(job));
      assertEquals(JobStatus.State.KILLED, job.getJobState());
      FailureSupport.assertNothingCommitted(out(job));
      assertNothingLeft(conf, job.getJobID());
    } finally {
      if (!FailureSupport.isComplete(job)) {
        job.killJob();
      }
    }
  }

  /** A local dir below a regular file: nothing can be created there, not even by root. */
  private File unusableLocalDir() throws IOException {
    File file = new File(root, "a-regular-file");
    Files.writeString(file.toPath(), "not a directory");
    return new File(file, "local");
  }

  @Test
  void anUnusableLocalDirBesideAGoodOneIsLeftOut() throws Exception {
    Configuration conf = FailureSupport.conf(root, VIVACE);
    File good = FailureSupport.localDir(root);
    conf.set(MRConfig.LOCAL_DIR, unusableLocalDir().getAbsolutePath() + "," + good.getAbsolutePath());
    File out = new File(root, "out");
    Job job = FailureSupport.wordCount(conf, "one-bad-local-dir", FailureSupport.inputFiles(new File(root, "in"), 2, 5),
        out, 1);
    assertTrue(job.waitForCompletion(false), () -> FailureSupport.failureInfo(job));
    FailureSupport.assertOutput(FailureSupport.expectedWordCounts(2, 5), out);
    assertFalse(new File(good, "vivace/" + job.getJobID()).exists(), "job folder left in " + good);
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
