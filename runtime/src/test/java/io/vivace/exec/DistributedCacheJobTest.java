package io.vivace.exec;

import static io.vivace.testing.JobFixtures.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.testing.JobFixtures;
import io.vivace.testing.JobFixtures.FinishedJob;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distributed cache as tasks see it: a cache file and an unpacked cache archive reachable by
 * their {@code #link} names relative to the task's working directory through the local file
 * system (how TeraSort opens {@code _partition.lst}), and through the context's cache accessors.
 * After the job its local directory and its staging directory must be gone, and the cached
 * originals untouched.
 */
class DistributedCacheJobTest {

  @TempDir
  Path root;

  static String readAll(FileSystem fs, org.apache.hadoop.fs.Path path) throws IOException {
    List<String> lines = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(path), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lines.add(line);
      }
    }
    return String.join("|", lines);
  }

  /** Reports in its output what it can read from the cache. */
  public static class CacheReadingMapper extends Mapper<LongWritable, Text, Text, Text> {
    private void emit(Context context, String key, String value) throws IOException, InterruptedException {
      context.write(new Text(key), new Text(value));
    }

    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      Configuration conf = context.getConfiguration();
      FileSystem local = FileSystem.getLocal(conf);
      emit(context, "link", readAll(local, new org.apache.hadoop.fs.Path("link")));
      emit(context, "archive", readAll(local, new org.apache.hadoop.fs.Path("arc/inner/data.txt")));
      org.apache.hadoop.fs.Path relative = new org.apache.hadoop.fs.Path("link");
      emit(context, "default-fs-link", readAll(relative.getFileSystem(conf), relative));
      for (URI uri : context.getCacheFiles()) {
        emit(context, "cacheFile", uri.toString());
      }
      for (URI uri : context.getCacheArchives()) {
        emit(context, "cacheArchive", uri.toString());
      }
      @SuppressWarnings("deprecation")
      org.apache.hadoop.fs.Path[] localFiles = context.getLocalCacheFiles();
      for (org.apache.hadoop.fs.Path p : localFiles) {
        emit(context, "localCacheFile", readAll(local, p));
      }
      @SuppressWarnings("deprecation")
      org.apache.hadoop.fs.Path[] localArchives = context.getLocalCacheArchives();
      for (org.apache.hadoop.fs.Path p : localArchives) {
        emit(context, "localCacheArchive", readAll(local, new org.apache.hadoop.fs.Path(p, "inner/data.txt")));
      }
    }

    @Override
    protected void map(LongWritable key, Text value, Context context) {
    }
  }

  /** Passes the mapper's findings through and adds what the reducer reads from the link. */
  public static class CacheReadingReducer extends Reducer<Text, Text, Text, Text> {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      context.write(new Text("reduce-link"),
          new Text(readAll(FileSystem.getLocal(context.getConfiguration()), new org.apache.hadoop.fs.Path("link"))));
    }
  }

  private static void zip(Path zip, String... namesAndContents) throws IOException {
    try (OutputStream file = Files.newOutputStream(zip); ZipOutputStream out = new ZipOutputStream(file)) {
      for (int i = 0; i < namesAndContents.length; i += 2) {
        out.putNextEntry(new ZipEntry(namesAndContents[i]));
        out.write(namesAndContents[i + 1].getBytes(StandardCharsets.UTF_8));
        out.closeEntry();
      }
    }
  }

  @Test
  void cacheFileAndArchiveAreLinkedIntoTheTaskWorkingDirectory() throws Exception {
    Path cache = Files.createDirectories(root.resolve("cache-source"));
    Path lookup = JobFixtures.writeInputText(cache.resolve("lookup.txt"), "alpha=1\nbeta=2\n");
    Path archive = cache.resolve("bundle.zip");
    zip(archive, "inner/data.txt", "from the archive\n", "top.txt", "top\n");
    byte[] archiveBytes = Files.readAllBytes(archive);
    URI fileUri = new URI(JobFixtures.hadoopPath(lookup).toUri() + "#link");
    URI archiveUri = new URI(JobFixtures.hadoopPath(archive).toUri() + "#arc");

    Path input = root.resolve("input");
    JobFixtures.writeInputLines(input.resolve("one-line"), List.of("x"));
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, (conf, in, out) -> {
      Job job = Job.getInstance(conf, "distributed cache");
      job.setMapperClass(CacheReadingMapper.class);
      job.setReducerClass(CacheReadingReducer.class);
      job.setOutputKeyClass(Text.class);
      job.setOutputValueClass(Text.class);
      job.addCacheFile(fileUri);
      job.addCacheArchive(archiveUri);
      FileInputFormat.addInputPath(job, in);
      FileOutputFormat.setOutputPath(job, out);
      return job;
    });
    assertTrue(vivace.succeeded(), "the job failed: " + vivace.job().getStatus().getFailureInfo());
    assertEquals(List.of(
        "reduce-link\talpha=1|beta=2", // written by the reducer's setup, before the first group
        "archive\tfrom the archive",
        "cacheArchive\t" + archiveUri,
        "cacheFile\t" + fileUri,
        "default-fs-link\talpha=1|beta=2",
        "link\talpha=1|beta=2",
        "localCacheArchive\tfrom the archive",
        "localCacheFile\talpha=1|beta=2"), vivace.lines());

    String jobId = vivace.job().getJobID().toString();
    Path vivaceRoot = root.resolve(VIVACE);
    Path localDir = JobFixtures.localDir(vivaceRoot);
    assertFalse(Files.exists(localDir.resolve("vivace").resolve(jobId)), "the job's local directory is removed");
    assertEquals(List.of(), JobFixtures.filesBelow(localDir).stream().filter(f -> f.contains(jobId)).toList());
    assertEquals(List.of(), JobFixtures.filesBelow(localDir).stream()
        .filter(f -> !Files.isDirectory(localDir.resolve(f), java.nio.file.LinkOption.NOFOLLOW_LINKS)).toList(),
        "no localised file, unpacked archive or link is left behind");
    assertEquals(List.of(), JobFixtures.filesBelow(JobFixtures.stagingRoot(vivaceRoot)).stream()
        .filter(f -> f.contains(jobId)).toList(), "the staging directory is removed");

    assertEquals("alpha=1\nbeta=2\n", Files.readString(lookup), "the cached original is untouched");
    assertTrue(java.util.Arrays.equals(archiveBytes, Files.readAllBytes(archive)), "the archive is untouched");
  }

  /** Emits the content of the cache file linked as {@code lookup.txt} (no fragment). */
  public static class UnnamedLinkMapper extends Mapper<LongWritable, Text, Text, Text> {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      FileSystem local = FileSystem.getLocal(context.getConfiguration());
      context.write(value, new Text(readAll(local, new org.apache.hadoop.fs.Path("lookup.txt"))));
    }
  }

  private static Job unnamedLinkJob(Configuration conf, org.apache.hadoop.fs.Path in, org.apache.hadoop.fs.Path out,
                                    URI cacheFile) throws IOException {
    Job job = Job.getInstance(conf, "cache link " + cacheFile);
    job.setMapperClass(UnnamedLinkMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.addCacheFile(cacheFile);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }

  @Test
  void concurrentJobsEachSeeTheirOwnLinksUnderTheFileName() throws Exception {
    // two jobs in the same JVM, both linking a different file as "lookup.txt"
    Path input = root.resolve("input");
    JobFixtures.writeInputLines(input.resolve("lines"), List.of("a", "b", "c"));
    List<Job> jobs = new ArrayList<>();
    List<Path> outputs = new ArrayList<>();
    for (int j = 0; j < 2; j++) {
      Path lookup = JobFixtures.writeInputText(root.resolve("source" + j).resolve("lookup.txt"), "job " + j + "\n");
      Path jobRoot = root.resolve("job" + j);
      outputs.add(jobRoot.resolve("out"));
      Job job = unnamedLinkJob(JobFixtures.frameworkConf(jobRoot, VIVACE), JobFixtures.hadoopPath(input),
          JobFixtures.hadoopPath(outputs.get(j)), JobFixtures.hadoopPath(lookup).toUri());
      job.submit();
      jobs.add(job);
    }
    for (int j = 0; j < 2; j++) {
      assertTrue(jobs.get(j).waitForCompletion(false));
      assertEquals(List.of("a\tjob " + j, "b\tjob " + j, "c\tjob " + j), JobFixtures.readPartLines(outputs.get(j)));
    }
  }
}
