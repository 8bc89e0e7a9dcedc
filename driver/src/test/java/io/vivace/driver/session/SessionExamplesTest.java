package io.vivace.driver.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.client.SessionClient;
import io.vivace.driver.JobRecorder;
import io.vivace.driver.RecordedJob;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import javax.tools.ToolProvider;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.examples.AggregateWordCount;
import org.apache.hadoop.examples.MultiFileWordCount;
import org.apache.hadoop.examples.SecondarySort;
import org.apache.hadoop.examples.Sort;
import org.apache.hadoop.examples.WordCount;
import org.apache.hadoop.examples.terasort.TeraGen;
import org.apache.hadoop.examples.terasort.TeraSort;
import org.apache.hadoop.examples.terasort.TeraValidate;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.SleepJob;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.streaming.StreamJob;
import org.apache.hadoop.util.ExitUtil;
import org.apache.hadoop.util.ReflectionUtils;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.apache.hadoop.yarn.util.RackResolver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache's example jobs, unmodified, on a Vivace session on YARN + HDFS (Apache's mini-clusters,
 * three DataNodes and three NodeManagers): each writes the same bytes as the embedded engine on the
 * same input, terasort and wordcount the same as MapReduce on YARN on the same cluster; map locality
 * is counted as Hadoop counts it; the distributed cache reaches the executors.
 */
@Tag("minicluster")
@Tag("slow")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@ExtendWith(SharedCluster.class)
class SessionExamplesTest {

  private static final String SESSION_NAME = "examples";
  @TempDir
  static File dir;
  private static ClusterFixture cluster;
  private static FileSystem fs;

  /** Where a job runs. */
  private enum Engine {
    SESSION, EMBEDDED, YARN;

    Configuration conf() {
      return switch (this) {
        case SESSION -> cluster.sessionConf(SESSION_NAME);
        case EMBEDDED -> cluster.embeddedConf();
        case YARN -> cluster.yarnConf();
      };
    }

    String folder() {
      return name().toLowerCase();
    }
  }

  @BeforeAll
  static void useTheCluster() throws IOException {
    cluster = SharedCluster.cluster();
    fs = FileSystem.get(cluster.sessionConf(SESSION_NAME));
  }

  @AfterAll
  static void stopTheSession() throws IOException {
    SessionClient.stop(cluster.sessionConf(SESSION_NAME), SESSION_NAME);
  }

  /** Runs {@code tool} with {@code args} (generic options first) on {@code engine}: its one job. */
  private static RecordedJob run(Engine engine, Tool tool, String... args) throws Exception {
    return run(engine, engine.conf(), tool, args);
  }

  /** As {@link #run(Engine, Tool, String...)}, from {@code conf} (a configuration of {@code engine}). */
  private static RecordedJob run(Engine engine, Configuration conf, Tool tool, String... args) throws Exception {
    JobRecorder.recordOn(conf, conf.get("mapreduce.framework.name"));
    JobRecorder.drain();
    int exit = ToolRunner.run(conf, tool, args);
    List<RecordedJob> jobs = JobRecorder.drain();
    String what = tool.getClass().getSimpleName() + " " + String.join(" ", args) + " on " + engine;
    assertEquals(0, exit, what + ": exit code");
    assertEquals(1, jobs.size(), what + ": jobs submitted " + jobs);
    return jobs.get(0);
  }

  private static Path out(String job, Engine engine) {
    return new Path("/examples/" + job + "/" + engine.folder());
  }

  /**
   * Runs the job ({@code args} then its output folder) on the session and on the embedded engine; the
   * two outputs are the same bytes. A tool may keep state from one run to the next (StreamJob does),
   * so each run has a new one.
   */
  private static void assertSameOnSessionAndEmbedded(String job, Supplier<Tool> tool, String... args)
      throws Exception {
    for (Engine engine : List.of(Engine.SESSION, Engine.EMBEDDED)) {
      run(engine, tool.get(), withOutput(args, out(job, engine)));
      Outputs.assertCommitted(fs, out(job, engine), job + " on " + engine);
    }
    Outputs.assertSameFiles(fs, out(job, Engine.EMBEDDED), out(job, Engine.SESSION), job + ", session vs embedded");
  }

  private static String[] withOutput(String[] args, Path output) {
    String[] all = Arrays.copyOf(args, args.length + 1);
    all[args.length] = output.toString();
    return all;
  }

  /**
   * Starts {@code tool} ({@code args} then its output folder) on MapReduce on YARN, where it takes
   * the better part of a minute (an application master and a JVM per task), to be awaited after
   * the session's and the embedded engine's runs; its output is committed when it ends.
   */
  private static CompletableFuture<Void> onYarnMeanwhile(String job, Tool tool, String... args) {
    return CompletableFuture.runAsync(() -> {
      try {
        assertEquals(0, ToolRunner.run(Engine.YARN.conf(), tool, withOutput(args, out(job, Engine.YARN))),
            job + " on MapReduce on YARN: exit code");
        Outputs.assertCommitted(fs, out(job, Engine.YARN), job + " on MapReduce on YARN");
      } catch (Exception e) {
        throw new CompletionException(e);
      }
    });
  }

  @Test
  void teragenTerasortTeravalidate() throws Exception {
    long rows = 30_000;
    RecordedJob gen = null;
    for (Engine engine : List.of(Engine.SESSION, Engine.EMBEDDED)) {
      RecordedJob job = run(engine, new TeraGen(), "-D", "mapreduce.job.maps=3", Long.toString(rows),
          out("teragen", engine).toString());
      gen = engine == Engine.SESSION ? job : gen;
      Outputs.assertCommitted(fs, out("teragen", engine), "teragen on " + engine);
    }
    Outputs.assertSameFiles(fs, out("teragen", Engine.EMBEDDED), out("teragen", Engine.SESSION),
        "teragen, session vs embedded");
    assertEquals(3, Outputs.visibleFiles(fs, out("teragen", Engine.SESSION)).size(), "teragen's part files");

    String[] sort = {"-D", "mapreduce.job.reduces=2", out("teragen", Engine.SESSION).toString()};
    CompletableFuture<Void> onYarn = onYarnMeanwhile("terasort", new TeraSort(), sort);
    for (Engine engine : List.of(Engine.SESSION, Engine.EMBEDDED)) {
      RecordedJob job = run(engine, new TeraSort(), withOutput(sort, out("terasort", engine)));
      Outputs.assertCommitted(fs, out("terasort", engine), "terasort on " + engine);
      assertEquals(rows, job.counters().findCounter(TaskCounter.REDUCE_OUTPUT_RECORDS).getValue(),
          "terasort on " + engine + ": records written");
    }
    Outputs.assertSameFiles(fs, out("terasort", Engine.EMBEDDED), out("terasort", Engine.SESSION),
        "terasort, session vs embedded");

    run(Engine.SESSION, new TeraValidate(), out("terasort", Engine.SESSION).toString(),
        out("teravalidate", Engine.SESSION).toString());
    List<String> report = Outputs.lines(fs, out("teravalidate", Engine.SESSION));
    long checksum = gen.counters().findCounter(TeraGen.Counters.CHECKSUM).getValue();
    assertNotEquals(0, checksum, "teragen's checksum counter");
    assertEquals(List.of("checksum\t" + Long.toHexString(checksum)), report,
        "teravalidate's report (no errors; the checksum of the sorted rows is teragen's)");

    onYarn.join();
    Outputs.assertSameFiles(fs, out("terasort", Engine.YARN), out("terasort", Engine.SESSION),
        "terasort, session vs MapReduce on YARN");
  }

  /** Apache's wordcount, configured as its {@code main} does (which ends in System.exit). */
  public static final class WordCountTool extends Configured implements Tool {
    private Job job;

    @Override
    public int run(String[] args) throws Exception {
      job = Job.getInstance(getConf(), "word count");
      job.setJarByClass(WordCount.class);
      job.setMapperClass(WordCount.TokenizerMapper.class);
      job.setCombinerClass(WordCount.IntSumReducer.class);
      job.setReducerClass(WordCount.IntSumReducer.class);
      job.setOutputKeyClass(Text.class);
      job.setOutputValueClass(IntWritable.class);
      FileInputFormat.addInputPath(job, new Path(args[0]));
      FileOutputFormat.setOutputPath(job, new Path(args[1]));
      return job.waitForCompletion(true) ? 0 : 1;
    }

    /** The job of the last run. */
    Job job() {
      return job;
    }
  }

  /**
   * A file of text on each DataNode (replication 1): on the NodeManagers' host, on a host of the
   * same rack, on a host of another rack. Every executor (and every MapReduce container) runs on the
   * NodeManagers' host, so Hadoop counts one map data-local, one rack-local, one other-local.
   */
  @Test
  void wordcountMatchesMapReduceOnYarnAndCountsLocalityAsHadoop() throws Exception {
    Path input = new Path("/in/placed");
    Map<JobCounter, Long> expected = new EnumMap<>(JobCounter.class);
    Random random = new Random(42);
    List<DataNode> dataNodes = cluster.dfs().getDataNodes();
    for (int node = 0; node < dataNodes.size(); node++) {
      Path file = new Path(input, "node" + node);
      writeOn(dataNodes.get(node), file, words(random, 6000));
      String[] hosts = hostsOf(file);
      assertEquals(List.of(ClusterFixture.dataNodeHost(node)), List.of(hosts),
          "HDFS placed " + file + " on the DataNode it was asked to (favoured node)");
      expected.merge(hadoopLocality(ClusterFixture.NODE_MANAGER_HOST, hosts), 1L, Long::sum);
    }
    assertEquals(Map.of(JobCounter.DATA_LOCAL_MAPS, 1L, JobCounter.RACK_LOCAL_MAPS, 1L,
        JobCounter.OTHER_LOCAL_MAPS, 1L), expected, "where Hadoop's rules put the three maps");

    String[] args = {"-D", "mapreduce.job.reduces=2", input.toString()};
    WordCountTool onYarn = new WordCountTool();
    CompletableFuture<Void> yarnRun = onYarnMeanwhile("wordcount", onYarn, args);
    Map<Engine, Counters> counters = new EnumMap<>(Engine.class);
    for (Engine engine : List.of(Engine.SESSION, Engine.EMBEDDED)) {
      counters.put(engine, run(engine, new WordCountTool(), withOutput(args, out("wordcount", engine))).counters());
      Outputs.assertCommitted(fs, out("wordcount", engine), "wordcount on " + engine);
    }
    Outputs.assertSameFiles(fs, out("wordcount", Engine.EMBEDDED), out("wordcount", Engine.SESSION),
        "wordcount, session vs embedded");
    yarnRun.join();
    counters.put(Engine.YARN, onYarn.job.getCounters());
    Outputs.assertSameFiles(fs, out("wordcount", Engine.YARN), out("wordcount", Engine.SESSION),
        "wordcount, session vs MapReduce on YARN");
    for (Engine engine : List.of(Engine.SESSION, Engine.YARN)) {
      for (JobCounter kind : expected.keySet()) {
        assertEquals(expected.get(kind), counters.get(engine).findCounter(kind).getValue(),
            kind + " of wordcount on " + engine);
      }
    }
  }

  /** Writes {@code text} to {@code file} with its one replica on {@code node}. */
  private static void writeOn(DataNode node, Path file, String text) throws IOException {
    DistributedFileSystem dfs = cluster.dfs().getFileSystem();
    // unresolved: HDFS looks favoured nodes up by address:port, which a resolved name would lose
    InetSocketAddress where = InetSocketAddress.createUnresolved("127.0.0.1", node.getXferPort());
    try (FSDataOutputStream out = dfs.create(file, FsPermission.getFileDefault(), true, 4096, (short) 1,
        dfs.getDefaultBlockSize(file), null, new InetSocketAddress[] {where})) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static String[] hostsOf(Path file) throws IOException {
    BlockLocation[] blocks = fs.getFileBlockLocations(file, 0, fs.getFileStatus(file).getLen());
    assertEquals(1, blocks.length, file + ": blocks");
    return blocks[0].getHosts();
  }

  /** Hadoop's rule for a map run on {@code host} whose split is on {@code inputHosts}. */
  private static JobCounter hadoopLocality(String host, String[] inputHosts) {
    for (String input : inputHosts) {
      if (NetUtils.normalizeHostName(input).equals(NetUtils.normalizeHostName(host))) {
        return JobCounter.DATA_LOCAL_MAPS;
      }
    }
    String rack = RackResolver.resolve(cluster.sessionConf(SESSION_NAME), host).getNetworkLocation();
    for (String input : inputHosts) {
      if (RackResolver.resolve(cluster.sessionConf(SESSION_NAME), input).getNetworkLocation().equals(rack)) {
        return JobCounter.RACK_LOCAL_MAPS;
      }
    }
    return JobCounter.OTHER_LOCAL_MAPS;
  }

  private static String words(Random random, int count) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < count; i++) {
      text.append("w").append(random.nextInt(500)).append(i % 12 == 11 ? '\n' : ' ');
    }
    return text.append('\n').toString();
  }

  private static void writeText(Path file, String text) throws IOException {
    try (FSDataOutputStream out = fs.create(file, true)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void sort() throws Exception {
    Path input = new Path("/in/sort");
    Random random = new Random(7);
    for (int f = 0; f < 3; f++) {
      try (SequenceFile.Writer writer = SequenceFile.createWriter(cluster.sessionConf(SESSION_NAME),
          SequenceFile.Writer.file(new Path(input, "part-" + f)), SequenceFile.Writer.keyClass(BytesWritable.class),
          SequenceFile.Writer.valueClass(BytesWritable.class))) {
        for (int r = 0; r < 2000; r++) {
          byte[] key = new byte[5 + random.nextInt(20)];
          byte[] value = new byte[random.nextInt(100)];
          random.nextBytes(key);
          random.nextBytes(value);
          writer.append(new BytesWritable(key), new BytesWritable(value));
        }
      }
    }
    for (Engine engine : List.of(Engine.SESSION, Engine.EMBEDDED)) {
      run(engine, new Sort<BytesWritable, BytesWritable>(), "-r", "2", input.toString(), out("sort", engine).toString());
      Outputs.assertCommitted(fs, out("sort", engine), "sort on " + engine);
    }
    Outputs.assertSameSequenceFiles(fs, out("sort", Engine.EMBEDDED), out("sort", Engine.SESSION),
        "sort, session vs embedded");
  }

  @Test
  void sleep() throws Exception {
    RecordedJob job = run(Engine.SESSION, new SleepJob(), "-m", "5", "-r", "2", "-mt", "20", "-rt", "20");
    Counters counters = job.counters();
    assertEquals(5, counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue(), "sleep: maps launched");
    assertEquals(2, counters.findCounter(JobCounter.TOTAL_LAUNCHED_REDUCES).getValue(), "sleep: reduces launched");
    assertEquals(5, counters.findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue(), "sleep: map input records");
    assertEquals(2 * 5, counters.findCounter(TaskCounter.REDUCE_INPUT_RECORDS).getValue(),
        "sleep: reduce input records (one per map and reduce)");
  }

  /** Apache's secondarysort, configured as its {@code main} does (which ends in System.exit). */
  public static final class SecondarySortTool extends Configured implements Tool {
    @Override
    public int run(String[] args) throws Exception {
      Job job = Job.getInstance(getConf(), "secondary sort");
      job.setJarByClass(SecondarySort.class);
      job.setMapperClass(SecondarySort.MapClass.class);
      job.setReducerClass(SecondarySort.Reduce.class);
      job.setPartitionerClass(SecondarySort.FirstPartitioner.class);
      job.setGroupingComparatorClass(SecondarySort.FirstGroupingComparator.class);
      job.setMapOutputKeyClass(SecondarySort.IntPair.class);
      job.setMapOutputValueClass(IntWritable.class);
      job.setOutputKeyClass(Text.class);
      job.setOutputValueClass(IntWritable.class);
      FileInputFormat.addInputPath(job, new Path(args[0]));
      FileOutputFormat.setOutputPath(job, new Path(args[1]));
      return job.waitForCompletion(true) ? 0 : 1;
    }
  }

  @Test
  void secondarysort() throws Exception {
    Path input = new Path("/in/pairs");
    Random random = new Random(3);
    for (int f = 0; f < 3; f++) {
      StringBuilder text = new StringBuilder();
      for (int line = 0; line < 3000; line++) {
        text.append(random.nextInt(200) - 100).append(' ').append(random.nextInt(2000) - 1000).append('\n');
      }
      writeText(new Path(input, "f" + f), text.toString());
    }
    assertSameOnSessionAndEmbedded("secondarysort", SecondarySortTool::new, "-D", "mapreduce.job.reduces=2",
        input.toString());
  }

  @Test
  void multifilewc() throws Exception {
    Path input = new Path("/in/many");
    Random random = new Random(5);
    for (int f = 0; f < 8; f++) {
      writeText(new Path(input, "f" + f), words(random, 400 + f * 50));
    }
    assertSameOnSessionAndEmbedded("multifilewc", MultiFileWordCount::new, input.toString());
  }

  /**
   * Apache's aggregatewordcount through its own {@code main}, given the cluster's client
   * configuration with {@code -conf} as a user would (its exit goes through Hadoop's ExitUtil).
   */
  @Test
  void aggregatewordcount() throws Exception {
    Path input = new Path("/in/aggregate");
    Random random = new Random(11);
    for (int f = 0; f < 3; f++) {
      writeText(new Path(input, "f" + f), words(random, 2000));
    }
    ExitUtil.disableSystemExit();
    for (Engine engine : List.of(Engine.SESSION, Engine.EMBEDDED)) {
      File conf = new File(dir, engine.folder() + "-client.xml");
      try (OutputStream out = Files.newOutputStream(conf.toPath())) {
        engine.conf().writeXml(out);
      }
      ExitUtil.ExitException exit = assertThrows(ExitUtil.ExitException.class,
          () -> AggregateWordCount.main(new String[] {"-conf", conf.getAbsolutePath(), input.toString(),
              out("aggregatewordcount", engine).toString(), "2", "textinputformat"}));
      ExitUtil.resetFirstExitException();
      assertEquals(0, exit.getExitCode(), "aggregatewordcount on " + engine + ": exit code");
      Outputs.assertCommitted(fs, out("aggregatewordcount", engine), "aggregatewordcount on " + engine);
    }
    Outputs.assertSameFiles(fs, out("aggregatewordcount", Engine.EMBEDDED), out("aggregatewordcount", Engine.SESSION),
        "aggregatewordcount, session vs embedded");
  }

  private static final String MAPPER = """
      #!/usr/bin/env python3
      import sys
      for line in sys.stdin:
          for word in line.split():
              print(word + "\\t1")
      """;
  private static final String REDUCER = """
      #!/usr/bin/env python3
      import sys
      current, total = None, 0
      for line in sys.stdin:
          word, count = line.rstrip("\\n").split("\\t")
          if word != current:
              if current is not None:
                  print(current + "\\t" + str(total))
              current, total = word, 0
          total += int(count)
      if current is not None:
          print(current + "\\t" + str(total))
      """;

  /** Hadoop Streaming with Python scripts shipped with {@code -files}, run by their {@code #!} line. */
  @Test
  void streaming() throws Exception {
    Path input = new Path("/in/streaming");
    Random random = new Random(13);
    for (int f = 0; f < 3; f++) {
      writeText(new Path(input, "f" + f), words(random, 2500));
    }
    File mapper = script("mapper.py", MAPPER);
    File reducer = script("reducer.py", REDUCER);
    assertSameOnSessionAndEmbedded("streaming", StreamJob::new, "-files",
        mapper.getAbsolutePath() + "," + reducer.getAbsolutePath(), "-D", "mapreduce.job.reduces=2",
        "-input", input.toString(), "-mapper", "mapper.py", "-reducer", "reducer.py", "-output");
  }

  /** A script as users keep them: readable, not executable (the task's copy must be). */
  private static File script(String name, String text) throws IOException {
    File file = new File(dir, name);
    Files.writeString(file.toPath(), text, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(file.toPath(), PosixFilePermissions.fromString("rw-r--r--"));
    return file;
  }

  /** The name of the class that only the {@code -libjars} jar holds. */
  private static final String LIBRARY_CLASS = "vivace.test.lib.Shout";

  /**
   * Writes each line with what the distributed cache brought into the task's working directory: a
   * {@code -files} file by its link name, a file of a {@code -archives} archive under its link, and
   * the answer of a class that only a {@code -libjars} jar holds.
   */
  public static final class CacheMapper extends Mapper<LongWritable, Text, Text, Text> {
    private String cached;
    private UnaryOperator<String> library;

    @Override
    @SuppressWarnings("unchecked")
    protected void setup(Context context) throws IOException {
      cached = Files.readString(java.nio.file.Path.of("dictionary")).trim() + "|"
          + Files.readString(java.nio.file.Path.of("bundle", "inner", "colour.txt")).trim();
      try {
        library = (UnaryOperator<String>) ReflectionUtils.newInstance(
            context.getConfiguration().getClassByName(LIBRARY_CLASS), context.getConfiguration());
      } catch (ClassNotFoundException e) {
        throw new IOException("the -libjars class is not on the task's class path", e);
      }
    }

    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      context.write(value, new Text(cached + "|" + library.apply(value.toString())));
    }
  }

  /** A map-only job of {@link CacheMapper}: {@code <in> <out>} after the generic options. */
  public static final class CacheTool extends Configured implements Tool {
    @Override
    public int run(String[] args) throws Exception {
      Job job = Job.getInstance(getConf(), "distributed cache");
      job.setJarByClass(CacheMapper.class);
      job.setMapperClass(CacheMapper.class);
      job.setNumReduceTasks(0);
      job.setOutputKeyClass(Text.class);
      job.setOutputValueClass(Text.class);
      FileInputFormat.addInputPath(job, new Path(args[0]));
      FileOutputFormat.setOutputPath(job, new Path(args[1]));
      return job.waitForCompletion(true) ? 0 : 1;
    }
  }

  @Test
  void filesArchivesAndLibjarsReachTheExecutors() throws Exception {
    Path input = new Path("/in/cache");
    writeText(new Path(input, "a"), "alpha\nbeta\n");
    writeText(new Path(input, "b"), "gamma\n");
    File dictionary = new File(dir, "dictionary.txt");
    Files.writeString(dictionary.toPath(), "apple=red\n", StandardCharsets.UTF_8);
    File archive = new File(dir, "bundle.zip");
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(archive.toPath()))) {
      zip.putNextEntry(new ZipEntry("inner/colour.txt"));
      zip.write("green\n".getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
    }
    File library = libraryJar();

    assertSameOnSessionAndEmbedded("cache", CacheTool::new, "-files", dictionary.getAbsolutePath() + "#dictionary",
        "-archives", archive.getAbsolutePath() + "#bundle", "-libjars", library.getAbsolutePath(), input.toString());
    List<String> lines = new ArrayList<>(Outputs.lines(fs, out("cache", Engine.SESSION)));
    lines.sort(null);
    assertEquals(List.of("alpha\tapple=red|green|ALPHA!", "beta\tapple=red|green|BETA!",
        "gamma\tapple=red|green|GAMMA!"), lines);
  }

  /** A jar of one class, compiled here: {@value #LIBRARY_CLASS}, which shouts what it is given. */
  private static File libraryJar() throws IOException {
    File jar = compiledJar("shout", Map.of("vivace/test/lib/Shout.java", """
        package vivace.test.lib;
        public class Shout implements java.util.function.UnaryOperator<String> {
          public String apply(String text) {
            return text.toUpperCase() + "!";
          }
        }
        """));
    assertThrows(ClassNotFoundException.class, () -> Class.forName(LIBRARY_CLASS),
        "the -libjars class must not be on the test's (and so the executors') class path");
    return jar;
  }

  /** The program of the job jar: its tool, and the input format and split class only it holds. */
  private static final String JOB_TOOL = "vivace.test.job.CountingJob";
  private static final String JOB_SPLIT_CLASS = "vivace.test.job.CountingInputFormat$CountingSplit";

  /**
   * A job jar as a user builds one, compiled here: a map-only job whose input format makes three
   * splits of its own class, split {@code i} giving {@code i + 2} records.
   */
  private static File countingJobJar() throws IOException {
    return compiledJar("counting-job", Map.of("vivace/test/job/CountingInputFormat.java", """
        package vivace.test.job;
        import java.io.DataInput;
        import java.io.DataOutput;
        import java.io.IOException;
        import java.util.ArrayList;
        import java.util.List;
        import org.apache.hadoop.io.Text;
        import org.apache.hadoop.io.Writable;
        import org.apache.hadoop.mapreduce.*;
        public class CountingInputFormat extends InputFormat<Text, Text> {
          public static class CountingSplit extends InputSplit implements Writable {
            int index;
            int records;
            public CountingSplit() {
            }
            CountingSplit(int index, int records) {
              this.index = index;
              this.records = records;
            }
            public long getLength() {
              return records;
            }
            public String[] getLocations() {
              return new String[0];
            }
            public void write(DataOutput out) throws IOException {
              out.writeInt(index);
              out.writeInt(records);
            }
            public void readFields(DataInput in) throws IOException {
              index = in.readInt();
              records = in.readInt();
            }
          }
          public List<InputSplit> getSplits(JobContext context) {
            List<InputSplit> splits = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
              splits.add(new CountingSplit(i, i + 2));
            }
            return splits;
          }
          public RecordReader<Text, Text> createRecordReader(InputSplit split, TaskAttemptContext context) {
            CountingSplit counting = (CountingSplit) split;
            return new RecordReader<Text, Text>() {
              private int next = -1;
              public void initialize(InputSplit s, TaskAttemptContext c) {
              }
              public boolean nextKeyValue() {
                return ++next < counting.records;
              }
              public Text getCurrentKey() {
                return new Text("split-" + counting.index);
              }
              public Text getCurrentValue() {
                return new Text("record-" + next);
              }
              public float getProgress() {
                return (float) next / counting.records;
              }
              public void close() {
              }
            };
          }
        }
        """, "vivace/test/job/CountingJob.java", """
        package vivace.test.job;
        import org.apache.hadoop.conf.Configured;
        import org.apache.hadoop.fs.Path;
        import org.apache.hadoop.io.Text;
        import org.apache.hadoop.mapreduce.Job;
        import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
        import org.apache.hadoop.util.Tool;
        public class CountingJob extends Configured implements Tool {
          public int run(String[] args) throws Exception {
            Job job = Job.getInstance(getConf(), "counting splits");
            job.setJarByClass(CountingJob.class);
            job.setInputFormatClass(CountingInputFormat.class);
            job.setNumReduceTasks(0);
            job.setOutputKeyClass(Text.class);
            job.setOutputValueClass(Text.class);
            FileOutputFormat.setOutputPath(job, new Path(args[0]));
            return job.waitForCompletion(true) ? 0 : 1;
          }
        }
        """));
  }

  /**
   * A job whose input format and split class only its job jar holds, run as {@code vivace jar} runs
   * a program (the jar on a class loader of its own, the thread's and the configuration's): the
   * session reads the splits with the job jar's classes, as the embedded engine does.
   */
  @Test
  void splitClassOnlyInTheJobJar() throws Exception {
    File jar = countingJobJar();
    assertThrows(ClassNotFoundException.class, () -> Class.forName(JOB_SPLIT_CLASS),
        "the split class must not be on the test's (and so the executors') class path");
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    try (URLClassLoader program = new URLClassLoader(new URL[] {jar.toURI().toURL()}, previous)) {
      thread.setContextClassLoader(program);
      for (Engine engine : List.of(Engine.SESSION, Engine.EMBEDDED)) {
        Configuration conf = engine.conf();
        conf.setClassLoader(program);
        Tool tool = (Tool) program.loadClass(JOB_TOOL).getDeclaredConstructor().newInstance();
        RecordedJob job = run(engine, conf, tool, out("jobjar", engine).toString());
        Outputs.assertCommitted(fs, out("jobjar", engine), "job jar's job on " + engine);
        assertEquals(3, job.counters().findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue(),
            "job jar's job on " + engine + ": maps (one per split)");
      }
    } finally {
      thread.setContextClassLoader(previous);
    }
    Outputs.assertSameFiles(fs, out("jobjar", Engine.EMBEDDED), out("jobjar", Engine.SESSION),
        "job jar's job, session vs embedded");
    List<String> lines = new ArrayList<>(Outputs.lines(fs, out("jobjar", Engine.SESSION)));
    lines.sort(null);
    assertEquals(List.of("split-0\trecord-0", "split-0\trecord-1", "split-1\trecord-0", "split-1\trecord-1",
        "split-1\trecord-2", "split-2\trecord-0", "split-2\trecord-1", "split-2\trecord-2",
        "split-2\trecord-3"), lines);
  }

  /**
   * The same job with its split class left out of its jar, on the client's class path only: the
   * session's submission fails with an error that names the class and the job, and nothing is
   * written. (The embedded engine runs the job beside its client, with the client's classes.)
   */
  @Test
  void splitClassMissingFromTheJobJar() throws Exception {
    File full = countingJobJar();
    String splitEntry = JOB_SPLIT_CLASS.replace('.', '/') + ".class";
    File jobJar = jarOf(full, "counting-job-without-split", entry -> !entry.equals(splitEntry));
    File clientOnly = jarOf(full, "counting-split-client-only", splitEntry::equals);
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    try (URLClassLoader program = new URLClassLoader(
        new URL[] {jobJar.toURI().toURL(), clientOnly.toURI().toURL()}, previous)) {
      thread.setContextClassLoader(program);
      Configuration conf = Engine.SESSION.conf();
      conf.setClassLoader(program);
      Tool tool = (Tool) program.loadClass(JOB_TOOL).getDeclaredConstructor().newInstance();
      Path output = out("jobjar-missing-split", Engine.SESSION);
      IOException error = assertThrows(IOException.class, () -> ToolRunner.run(conf, tool, new String[] {
          output.toString()}), "submitting a job whose split class is not in its jar");
      assertTrue(error.getMessage().matches("(?s).*Split class " + Pattern.quote(JOB_SPLIT_CLASS)
          + " of job job_\\S+ not found on the job's class path.*"), "the error: " + error);
      assertTrue(!fs.exists(output) || Outputs.visibleFiles(fs, output).isEmpty(), "no output");
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  /** A copy of {@code jar}, named {@code name}, with the entries {@code keep} accepts. */
  private static File jarOf(File jar, String name, Predicate<String> keep) throws IOException {
    File copy = new File(dir, name + ".jar");
    try (JarFile in = new JarFile(jar); JarOutputStream out = new JarOutputStream(Files.newOutputStream(copy.toPath()))) {
      for (JarEntry entry : java.util.Collections.list(in.entries())) {
        if (keep.test(entry.getName())) {
          out.putNextEntry(new JarEntry(entry.getName()));
          try (var bytes = in.getInputStream(entry)) {
            bytes.transferTo(out);
          }
          out.closeEntry();
        }
      }
    }
    return copy;
  }

  /**
   * A jar of {@code sources} (path under the source root -> text), compiled here against Hadoop's
   * jars, with every class they make (nested ones too).
   */
  private static File compiledJar(String name, Map<String, String> sources) throws IOException {
    File sourceRoot = new File(dir, name + "-src");
    File classes = new File(dir, name + "-classes");
    List<String> javac = new ArrayList<>(List.of("-d", classes.getAbsolutePath(), "-classpath",
        hadoopClassPath()));
    for (Map.Entry<String, String> source : sources.entrySet()) {
      File file = new File(sourceRoot, source.getKey());
      Files.createDirectories(file.getParentFile().toPath());
      Files.writeString(file.toPath(), source.getValue(), StandardCharsets.UTF_8);
      javac.add(file.getAbsolutePath());
    }
    Files.createDirectories(classes.toPath());
    int compiled = ToolProvider.getSystemJavaCompiler().run(null, null, null, javac.toArray(new String[0]));
    assertEquals(0, compiled, "javac of " + sources.keySet());
    File jar = new File(dir, name + ".jar");
    List<java.nio.file.Path> classFiles;
    try (var walk = Files.walk(classes.toPath())) {
      classFiles = walk.filter(Files::isRegularFile).sorted().toList();
    }
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar.toPath()))) {
      for (java.nio.file.Path classFile : classFiles) {
        out.putNextEntry(new JarEntry(classes.toPath().relativize(classFile).toString()));
        out.write(Files.readAllBytes(classFile));
        out.closeEntry();
      }
    }
    return jar;
  }

  /** The jars of Hadoop's job API (common and MapReduce's core), to compile a job against. */
  private static String hadoopClassPath() {
    List<String> jars = new ArrayList<>();
    for (Class<?> cls : List.of(Configuration.class, Job.class)) {
      jars.add(new File(cls.getProtectionDomain().getCodeSource().getLocation().getPath()).getAbsolutePath());
    }
    return String.join(File.pathSeparator, jars);
  }
}
