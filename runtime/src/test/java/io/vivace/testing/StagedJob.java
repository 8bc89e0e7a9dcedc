package io.vivace.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.split.JobSplitWriter;

/**
 * A job staged on the local file system as Hadoop's job client stages one ({@code job.xml},
 * {@code job.split} and its meta info, written by Hadoop's own {@link JobSplitWriter}), without
 * running it: what a session's application master and executors read back. Each map's split names
 * the hosts its input is on, for placement. The job is new-API, writes text to its output folder
 * with Hadoop's file output committer, and carries a zip in its distributed cache (unpacked into
 * the job's local folder wherever the job is read back) and a few hundred keys of its own, so that
 * a half-written {@code job.xml} cannot pass for a whole one.
 */
public final class StagedJob {

  /** Keys the staged configuration carries beyond Hadoop's; each is {@code value-<n>}. */
  public static final int FILLER_KEYS = 400;

  private final JobID id;
  private final Path submitDir;
  private final Path output;

  private StagedJob(JobID id, Path submitDir, Path output) {
    this.id = id;
    this.submitDir = submitDir;
    this.output = output;
  }

  /**
   * Stages job {@code number} of cluster {@code cluster} under {@code root}: one map per entry of
   * {@code mapHosts} (the hosts its input is on; none for an input anywhere), {@code reduces} reduces.
   */
  public static StagedJob stage(java.nio.file.Path root, String cluster, int number, List<String[]> mapHosts,
                                int reduces) throws IOException, InterruptedException {
    return stage(root, cluster, number, mapHosts, reduces, conf -> { });
  }

  /** As {@link #stage(java.nio.file.Path, String, int, List, int)}, with {@code more} of the job's own settings. */
  public static StagedJob stage(java.nio.file.Path root, String cluster, int number, List<String[]> mapHosts,
                                int reduces, java.util.function.Consumer<JobConf> more)
      throws IOException, InterruptedException {
    JobID id = new JobID(cluster, number);
    java.nio.file.Path dir = root.resolve("staging").resolve(id.toString());
    Files.createDirectories(dir);
    FileSystem fs = FileSystem.getLocal(new org.apache.hadoop.conf.Configuration());
    JobConf conf = new JobConf();
    conf.set("fs.defaultFS", "file:///");
    conf.set(MRJobConfig.USER_NAME, System.getProperty("user.name"));
    conf.setJobName("staged " + id);
    conf.setUseNewMapper(true);
    conf.setUseNewReducer(true);
    conf.setNumReduceTasks(reduces);
    conf.setNumMapTasks(mapHosts.size());
    Path output = JobFixtures.hadoopPath(root.resolve("output").resolve(id.toString()));
    conf.set("mapreduce.output.fileoutputformat.outputdir", output.toString());
    for (int i = 0; i < FILLER_KEYS; i++) {
      conf.set("staged.key." + i, "value-" + i);
    }
    java.nio.file.Path archive = dir.resolve("files/lookup.zip");
    Files.createDirectories(archive.getParent());
    try (OutputStream out = Files.newOutputStream(archive); ZipOutputStream zip = new ZipOutputStream(out)) {
      for (int i = 0; i < 20; i++) {
        zip.putNextEntry(new ZipEntry("lookup/part-" + i));
        zip.write(("lookup table part " + i + "\n").repeat(200).getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
      }
    }
    conf.set(MRJobConfig.CACHE_ARCHIVES, JobFixtures.hadoopPath(archive) + "#lookup");
    more.accept(conf);

    java.nio.file.Path input = JobFixtures.writeInputText(root.resolve("input").resolve(id + ".txt"),
        "a line of input\n".repeat(64));
    long length = Files.size(input);
    List<FileSplit> splits = new ArrayList<>();
    for (String[] hosts : mapHosts) {
      splits.add(new FileSplit(JobFixtures.hadoopPath(input), 0, length, hosts));
    }
    Path submitDir = JobFixtures.hadoopPath(dir);
    JobSplitWriter.createSplitFiles(submitDir, conf, fs, splits.toArray(new FileSplit[0]));
    try (OutputStream out = Files.newOutputStream(dir.resolve("job.xml"))) {
      conf.writeXml(out);
    }
    return new StagedJob(id, submitDir, output);
  }

  public JobID id() {
    return id;
  }

  /** The folder the job is staged in, as a client hands it to {@code submitJob}. */
  public Path submitDir() {
    return submitDir;
  }

  /** The job's output folder. */
  public Path output() {
    return output;
  }
}
