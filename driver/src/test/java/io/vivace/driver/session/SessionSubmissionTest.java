package io.vivace.driver.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.client.SessionClient;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;
import org.apache.hadoop.util.GenericOptionsParser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * How jobs reach a session: one that needs nothing staged is sent as its description over the
 * session's RPC and changes nothing on the NameNode as it is submitted (counted on the NameNode's
 * own RPC metrics); one with {@code -files} or {@code -libjars}, or with
 * {@code vivace.session.submit.rpc=false}, or whose description is too large for a call, is staged
 * on HDFS as before; either way the output is the embedded engine's, byte for byte.
 */
@Tag("minicluster")
@Timeout(900)
@ExtendWith(SharedCluster.class)
class SessionSubmissionTest {

  private static final String SESSION = "submission";
  /** The NameNode's calls that change its namespace (or a file's blocks), as its RPC metrics name them. */
  private static final Set<String> NAMESPACE_CHANGES = Set.of("Create", "Mkdirs", "Rename", "Rename2", "Delete",
      "SetPermission", "SetOwner", "SetReplication", "SetTimes", "Append", "Concat", "Truncate", "CreateSymlink",
      "AddBlock", "Complete", "AbandonBlock", "Fsync", "SetXAttr", "RemoveXAttr", "SetAcl", "ModifyAclEntries",
      "RemoveAclEntries", "RemoveDefaultAcl", "RemoveAcl", "SetStoragePolicy", "SetErasureCodingPolicy");
  private static final String VERSION = "vivace-test-jar-version.txt";
  private static ClusterFixture cluster;

  @BeforeAll
  static void useTheCluster() {
    cluster = SharedCluster.cluster();
  }

  @AfterAll
  static void stopTheSession() throws IOException {
    SessionClient.stop(cluster.sessionConf(SESSION), SESSION);
  }

  /**
   * With its jar already on the cluster (uploaded by content), a job submits without a single
   * namespace change on the NameNode; the same job with {@code vivace.session.submit.rpc=false}
   * stages its files there. A jar changed between two jobs is the one the next job runs.
   */
  @Test
  void aJobThatNeedsNothingStagedChangesNothingOnTheNameNodeAsItIsSubmitted() throws Exception {
    Configuration conf = cluster.sessionConf(SESSION);
    DistributedFileSystem fs = (DistributedFileSystem) FileSystem.get(conf);
    Path input = new Path("/in/submission-one-line");
    write(fs, input, "one line\n");
    File jar = Files.createTempFile("vivace-submission-", ".jar").toFile();
    try {
      writeJar(jar, Map.of(VERSION, "first"));
      Job warm = run(versionJob(conf, jar, input));
      assertEquals(1, versionCounter(warm, "first"), "warm: the session up, the jar uploaded");
      awaitHistoryOf(warm, fs);

      Map<String, Long> described = submitHeld(versionJob(conf, jar, input), fs, input, "first");
      assertEquals(Map.of(), described, "namespace changes on the NameNode while a job was submitted by description");

      Configuration staging = cluster.sessionConf(SESSION);
      staging.setBoolean("vivace.session.submit.rpc", false);
      Map<String, Long> staged = submitHeld(versionJob(staging, jar, input), fs, input, "first");
      assertTrue(staged.getOrDefault("Create", 0L) >= 3,
          "job.xml, job.split and job.splitmetainfo created on HDFS when staged: " + staged);

      Configuration tooLarge = cluster.sessionConf(SESSION);
      // what a call may carry as the client sees the cluster: 64 KB, of which a description may take
      // 16 KB, under this job's job.xml alone
      tooLarge.setInt("ipc.maximum.data.length", 64 * 1024);
      Map<String, Long> overLargest = submitHeld(versionJob(tooLarge, jar, input), fs, input, "first");
      assertTrue(overLargest.getOrDefault("Create", 0L) >= 3,
          "a description too large for a call staged on HDFS instead: " + overLargest);

      writeJar(jar, Map.of(VERSION, "second"));
      Map<String, Long> changedJar = submitHeld(versionJob(conf, jar, input), fs, input, "second");
      assertTrue(changedJar.keySet().stream().allMatch(c -> Set.of("Create", "Mkdirs", "Rename", "Complete",
          "AddBlock", "SetPermission").contains(c)), "only the changed jar's upload: " + changedJar);
      assertEquals(1L, changedJar.get("Rename"), "the changed jar put in place once: " + changedJar);
    } finally {
      jar.delete();
    }
  }

  /** Jobs with {@code -files} and {@code -libjars} are staged on HDFS and run with both. */
  @Test
  void jobsWithFilesAndLibjarsAreStagedAndRunWithThem() throws Exception {
    Configuration conf = cluster.sessionConf(SESSION);
    FileSystem fs = FileSystem.get(conf);
    Path input = new Path("/in/submission-files");
    write(fs, input, "one line\n");
    File lookup = Files.createTempFile("vivace-lookup-", ".txt").toFile();
    File libjar = Files.createTempFile("vivace-libjar-", ".jar").toFile();
    try {
      Files.writeString(lookup.toPath(), "from -files");
      writeJar(libjar, Map.of(VERSION, "from -libjars"));
      new GenericOptionsParser(conf, new String[] {"-files", lookup.getAbsolutePath(), "-libjars",
          libjar.getAbsolutePath()});
      Job job = Job.getInstance(conf, "files and libjars");
      job.setMapperClass(ShippedFilesMapper.class);
      job.getConfiguration().set(ShippedFilesMapper.LINK, lookup.getName());
      job.setNumReduceTasks(0);
      job.setInputFormatClass(TextInputFormat.class);
      job.setOutputFormatClass(NullOutputFormat.class);
      FileInputFormat.addInputPath(job, input);
      Map<String, Long> before = RpcCalls.byMethod(RpcCalls.nameNode(cluster));
      job.submit();
      Map<String, Long> submitting = namespaceChanges(before);
      assertTrue(job.waitForCompletion(false), job.getStatus().getFailureInfo());
      assertTrue(submitting.getOrDefault("Create", 0L) >= 5,
          "the job's files, the -files file and the -libjars jar created on HDFS: " + submitting);
      assertEquals(1, job.getCounters().findCounter("file", "from -files").getValue(), "maps that read the -files file");
      assertEquals(1, job.getCounters().findCounter("jar", "from -libjars").getValue(),
          "maps that read the -libjars jar");
    } finally {
      lookup.delete();
      libjar.delete();
    }
  }

  /** A word count submitted by description writes the embedded engine's output, byte for byte. */
  @Test
  void aDescribedJobsOutputIsTheEmbeddedEnginesByteForByte() throws Exception {
    FileSystem fs = FileSystem.get(cluster.sessionConf(SESSION));
    Path input = new Path("/in/submission-words");
    java.util.Random random = new java.util.Random(29);
    for (int f = 0; f < 3; f++) {
      StringBuilder text = new StringBuilder();
      for (int line = 0; line < 1500; line++) {
        for (int w = 0; w < 5; w++) {
          text.append("w").append(random.nextInt(400)).append(' ');
        }
        text.append('\n');
      }
      write(fs, new Path(input, "f" + f), text.toString());
    }
    try (Job warm = io.vivace.workloads.bench.LatencyBench.emptyJob(cluster.sessionConf(SESSION))) {
      run(warm); // the session up before the job whose submission is counted
      awaitHistoryOf(warm, (DistributedFileSystem) fs);
    }
    Path onSession = new Path("/out/submission-words-session");
    Path embedded = new Path("/out/submission-words-embedded");
    Map<String, Long> before = RpcCalls.byMethod(RpcCalls.nameNode(cluster));
    Job session = wordCount(cluster.sessionConf(SESSION), input, onSession);
    session.submit();
    Map<String, Long> submitting = namespaceChanges(before);
    assertTrue(session.waitForCompletion(false), session.getStatus().getFailureInfo());
    assertTrue(!submitting.containsKey("Create"), "nothing created on HDFS to submit the word count: " + submitting);
    assertTrue(run(wordCount(cluster.embeddedConf(), input, embedded)).isSuccessful());
    List<Path> sessionFiles = Outputs.visibleFiles(fs, onSession);
    List<Path> embeddedFiles = Outputs.visibleFiles(fs, embedded);
    assertEquals(names(embeddedFiles), names(sessionFiles));
    assertEquals(3, sessionFiles.size(), "part files");
    for (int i = 0; i < sessionFiles.size(); i++) {
      assertArrayEquals(Outputs.bytes(fs, embeddedFiles.get(i)), Outputs.bytes(fs, sessionFiles.get(i)),
          sessionFiles.get(i).getName());
    }
    Outputs.assertCommitted(fs, onSession, "the session's word count");
  }

  /**
   * Submits {@code job} while the DataNodes hold its one map's read of {@code input}, so that the
   * job cannot end (and write its history) before the NameNode's calls are counted; then lets it
   * run and checks that it read {@code version} from its jar. Returns the namespace changes the
   * submission made.
   */
  private static Map<String, Long> submitHeld(Job job, DistributedFileSystem fs, Path input, String version)
      throws Exception {
    Map<String, Long> changes;
    try (BlockReadGate gate = BlockReadGate.holdFirstReadOf(fs, input)) {
      Map<String, Long> before = RpcCalls.byMethod(RpcCalls.nameNode(cluster));
      job.submit();
      changes = namespaceChanges(before);
      gate.awaitReader();
    }
    assertTrue(job.waitForCompletion(false), job.getStatus().getFailureInfo());
    assertEquals(1, versionCounter(job, version), "maps that read " + version + " from the job jar");
    awaitHistoryOf(job, fs);
    return changes;
  }

  /**
   * Waits for the session to have copied the ended job's history to HDFS (it does so after the job
   * ended, on its own time), so that the copy is not counted with the next job's submission.
   */
  private static void awaitHistoryOf(Job job, DistributedFileSystem fs) throws Exception {
    Path history = new Path(cluster.sessionConf(SESSION).get("vivace.session.history.dir", "/tmp/vivace/history"),
        job.getJobID() + ".jsonl");
    for (int i = 0; i < 600 && !(fs.exists(history) && fs.isFileClosed(history)); i++) {
      Thread.sleep(100);
    }
    assertTrue(fs.exists(history) && fs.isFileClosed(history), "the history of " + job.getJobID() + " at " + history);
  }

  /** The NameNode's namespace-changing calls since {@code before}, by method. */
  private static Map<String, Long> namespaceChanges(Map<String, Long> before) {
    Map<String, Long> changes = new TreeMap<>(RpcCalls.since(before, RpcCalls.byMethod(RpcCalls.nameNode(cluster))));
    changes.keySet().retainAll(NAMESPACE_CHANGES);
    return changes;
  }

  private static Job versionJob(Configuration conf, File jar, Path input) throws IOException {
    Job job = Job.getInstance(conf, "jar version");
    job.setJar(jar.getAbsolutePath());
    job.setMapperClass(SessionJobsTest.JarVersionMapper.class);
    job.setNumReduceTasks(0);
    job.setInputFormatClass(TextInputFormat.class);
    job.setOutputFormatClass(NullOutputFormat.class);
    FileInputFormat.addInputPath(job, input);
    return job;
  }

  private static long versionCounter(Job job, String version) throws IOException {
    return job.getCounters().findCounter("jar", version).getValue();
  }

  private static Job wordCount(Configuration conf, Path input, Path output) throws IOException {
    Job job = Job.getInstance(conf, "word count");
    job.setMapperClass(org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper.class);
    job.setCombinerClass(org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer.class);
    job.setReducerClass(org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer.class);
    job.setNumReduceTasks(3);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  private static Job run(Job job) throws Exception {
    assertTrue(job.waitForCompletion(false), job.getStatus().getFailureInfo());
    return job;
  }

  private static List<String> names(List<Path> files) {
    return files.stream().map(Path::getName).toList();
  }

  private static void write(FileSystem fs, Path file, String text) throws IOException {
    try (FSDataOutputStream out = fs.create(file, true)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static void writeJar(File jar, Map<String, String> entries) throws IOException {
    try (var out = new java.util.jar.JarOutputStream(new java.io.FileOutputStream(jar))) {
      for (Map.Entry<String, String> entry : entries.entrySet()) {
        out.putNextEntry(new java.util.jar.JarEntry(entry.getKey()));
        out.write(entry.getValue().getBytes(StandardCharsets.UTF_8));
        out.closeEntry();
      }
    }
  }

  /**
   * Counts, once per map, the text of the {@code -files} file linked as {@value #LINK} in its
   * working folder and of the resource {@value #VERSION} on its class path (a {@code -libjars} jar).
   */
  public static class ShippedFilesMapper extends Mapper<LongWritable, Text, Text, Text> {
    static final String LINK = "submission.test.link";

    @Override
    protected void setup(Context context) throws IOException {
      String link = context.getConfiguration().get(LINK);
      context.getCounter("file", Files.readString(new File(link).toPath())).increment(1);
      try (var in = context.getConfiguration().getClassLoader().getResourceAsStream(VERSION)) {
        context.getCounter("jar", in == null ? "none" : new String(in.readAllBytes(), StandardCharsets.UTF_8))
            .increment(1);
      }
    }

    @Override
    protected void map(LongWritable key, Text value, Context context) {
    }
  }
}
