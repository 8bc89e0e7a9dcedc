package io.vivace.realcluster;

import static io.vivace.realcluster.ClusterClient.assertSameParts;
import static io.vivace.realcluster.ClusterClient.counter;
import static io.vivace.realcluster.ClusterClient.deleteTree;
import static io.vivace.realcluster.ClusterClient.get;
import static io.vivace.realcluster.ClusterClient.matches;
import static io.vivace.realcluster.ClusterClient.partNames;
import static io.vivace.realcluster.ClusterClient.timed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.StringTokenizer;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A real Apache Hadoop cluster on this machine ({@code ./vivace cluster up}: a master and three
 * worker hosts, each its own network namespace, links shaped to 1 Gbit/s each way, every block on
 * every worker), and on it, as a user would run them from outside the hosts: Apache's example jobs
 * on a Vivace session and on MapReduce on YARN with byte-identical outputs, jobs built on Hadoop's
 * library and on Avro likewise, the sleep job with nothing but its job jar, and the commands of
 * docs/cluster.md and docs/hadoop-cluster.md as written (the latter with the release tarball the
 * build made); then faults to its workers ({@link WorkerFaults}): a slow worker under both engines,
 * a worker lost during a session's job (MapReduce's is {@link RealClusterFaultsTest}'s, in the
 * {@code faults} tier). Then {@code down}, which must leave nothing. The module's one cluster of
 * the full suite. Skipped where network namespaces cannot be made (not root).
 */
@Tag("slow")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RealClusterTest {

  private static final Path HOME = ClusterClient.HOME;
  private static final Path LAUNCHER = ClusterClient.LAUNCHER;
  private static final Path EXAMPLES = ClusterClient.EXAMPLES;
  private static final Path WORKLOADS = HOME.resolve("workloads/target/vivace-workloads.jar");
  private static final JobJar LIBRARY = JobJar.of("hadoop-library");
  private static final JobJar AVRO = JobJar.of("avro");
  private static final Path RELEASE = Path.of(System.getProperty("vivace.release")).toAbsolutePath().normalize();
  private static final Path TEXT = HOME.resolve("docs");
  private static final List<String> TEXT_FILES = List.of("architecture.md", "performance.md", "cluster.md");
  private static final int TERAGEN_ROWS = 50_000;
  /** The engines, each with what names it on the command line: the comparison is one flag. */
  private static final Map<String, List<String>> ENGINES = new LinkedHashMap<>();

  static {
    for (Engine engine : Engine.values()) {
      ENGINES.put(engine.label, engine.flags);
    }
  }

  private final Path target = Path.of("target").toAbsolutePath();
  private final Path dir = target.resolve("real-cluster");
  private final Path work = target.resolve("real-cluster-work");
  private final ClusterClient client = new ClusterClient(dir, work);
  private final List<String> workers = new ArrayList<>();
  private final List<String> hosts = new ArrayList<>();
  private String bridge;
  private Host master;
  private boolean wordCountInputPut;
  private WorkerFaults faults;

  @BeforeAll
  void up() throws Exception {
    cluster("down", "--dir", dir.toString()); // what an earlier, interrupted run left
    deleteTree(dir); // and its HDFS: a cluster starts empty here
    deleteTree(work);
    Files.createDirectories(work);
    Run.Result up = timed("up", () -> cluster("up", "--dir", dir.toString(), "--hosts", "3", "--link", "1gbit"));
    Assumptions.assumeFalse(up.exitCode() == ClusterCommand.NAMESPACES_UNAVAILABLE,
        () -> "network namespaces cannot be made here: " + up.stderr().strip());
    assertEquals(0, up.exitCode(), up.describe());
    ClusterState state = ClusterState.load(dir.resolve("cluster.properties")).orElseThrow();
    state.hosts().forEach(h -> hosts.add(h.name()));
    state.workers().forEach(h -> workers.add(h.hostname()));
    bridge = state.bridge();
    master = state.master();
    faults = new WorkerFaults(client, dir, work, state);
  }

  @AfterAll
  void downAnyway() throws Exception {
    cluster("down", "--dir", dir.toString());
  }

  @Test
  @Order(1)
  void everyHostRunsItsDaemonsInItsNamespaceUnderItsNameBehindAShapedLink() throws Exception {
    Run.Result status = cluster("status", "--dir", dir.toString());
    assertEquals(0, status.exitCode(), status.describe());
    List<String> daemons = new ArrayList<>(List.of("namenode", "resourcemanager", "historyserver"));
    for (int i = 0; i < workers.size(); i++) {
      daemons.addAll(List.of("datanode", "nodemanager"));
    }
    List<String[]> rows = status.stdout().lines().filter(l -> l.endsWith(" running"))
        .map(l -> l.trim().split("\\s+")).toList();
    assertEquals(daemons.size(), rows.size(), status.describe());
    for (int i = 0; i < rows.size(); i++) {
      String[] row = rows.get(i); // HOST HOSTNAME ADDRESS DAEMON PID STATE
      assertEquals(daemons.get(i), row[3], status.describe());
      assertTrue(row[2].startsWith("198.18."), "addresses in 198.18.0.0/15 only: " + status.stdout());
      long pid = Long.parseLong(row[4]);
      assertEquals(row[0], run("ip", "netns", "identify", Long.toString(pid)).stdout().strip(),
          "the " + row[3] + " runs in its host's namespace");
      assertEquals(row[1], run("nsenter", "-t", Long.toString(pid), "-u", "hostname").stdout().strip(),
          "the " + row[3] + " runs under its host's name");
    }
    assertEquals(hosts.size(), status.stdout().lines().filter(l -> l.contains("rate 1Gbit ceil 1Gbit")).count(),
        "every host's link is shaped:\n" + status.stdout());
    for (String host : hosts) {
      String inside = run("tc", "-n", host, "class", "show", "dev", "eth0").stdout();
      assertTrue(inside.contains("rate 1Gbit"), "the link out of " + host + " is shaped too: " + inside);
      assertTrue(Files.readString(Path.of("/etc/netns", host, "hosts")).contains(host));
    }
    String mapredSite = Files.readString(dir.resolve("conf/mapred-site.xml"));
    assertTrue(mapredSite.contains("<name>mapreduce.framework.name</name><value>yarn</value>"), mapredSite);
  }

  @Test
  @Order(2)
  void apachesExamplesWriteTheSameBytesOnAVivaceSessionAsOnMapReduceOnYarn() throws Exception {
    fs("-put", localText().toString(), "/proof-text");
    // The engines side by side, and each one's wordcount beside its terasort: every chain waits on
    // its own daemons and JVMs most of the time.
    ExecutorService pool = Executors.newFixedThreadPool(2 * ENGINES.size());
    Map<String, Future<Run.Result>> terasorts = new LinkedHashMap<>();
    List<Future<Run.Result>> wordcounts = new ArrayList<>();
    try {
      for (Map.Entry<String, List<String>> engine : ENGINES.entrySet()) {
        String name = engine.getKey();
        List<String> flag = engine.getValue();
        terasorts.put(name, pool.submit(() -> teraChain(name, flag)));
        wordcounts.add(pool.submit(() -> timed(name + ": wordcount",
            () -> examples(flag, "wordcount", "/proof-text", "/proof/" + name + "/wordcount"))));
      }
      for (Future<Run.Result> job : wordcounts) {
        job.get();
      }
      for (Future<Run.Result> sort : terasorts.values()) {
        sort.get();
      }
    } finally {
      pool.shutdownNow();
    }

    timed("fetching the outputs", () -> fs("-get", "/proof/vivace-yarn", "/proof/mapreduce-yarn", work.toString()));
    Path vivace = work.resolve("vivace-yarn");
    Path mapreduce = work.resolve("mapreduce-yarn");
    for (String output : List.of("teragen", "terasort", "teravalidate", "wordcount")) {
      assertSameParts(mapreduce.resolve(output), vivace.resolve(output));
    }
    assertEquals(TERAGEN_ROWS * 100L, partBytes(vivace.resolve("terasort")));
    String validation = Files.readString(vivace.resolve("teravalidate/part-r-00000"));
    assertTrue(validation.startsWith("checksum\t") && !validation.contains("misorder"), validation);
    assertEquals(expectedWordCounts(), wordCounts(vivace.resolve("wordcount")));

    assertMapsRanDataLocalOnTheWorkers(terasorts.get("vivace-yarn").get(),
        jobId -> historyHosts("/tmp/vivace/history/" + jobId + ".jsonl"));
    assertMapsRanDataLocalOnTheWorkers(terasorts.get("mapreduce-yarn").get(), this::historyServerHosts);
  }

  /** teragen, terasort and teravalidate on one engine; returns the terasort's run. */
  private Run.Result teraChain(String engine, List<String> flag) throws Exception {
    String out = "/proof/" + engine;
    return timed(engine + ": teragen, terasort, teravalidate", () -> {
      examples(flag, "teragen", "-D", "mapreduce.job.maps=2", Integer.toString(TERAGEN_ROWS), out + "/teragen");
      // Without TeraScheduler, which gives each split one of its block's hosts, a split lists
      // every host that holds its block: here every worker (below).
      Run.Result sort = examples(flag, "terasort", "-D", "mapreduce.job.reduces=2",
          "-D", "mapreduce.terasort.use.terascheduler=false", out + "/teragen", out + "/terasort");
      examples(flag, "teravalidate", out + "/terasort", out + "/teravalidate");
      return sort;
    });
  }

  /**
   * Jobs built on Hadoop's library and on Avro, from job jars the build made, as a user runs them
   * (issue 23's cases): the reduce-side join through {@code MultipleInputs} with a value class of
   * the job jar's own, a {@code Serialization} of the job jar's own in
   * {@code io.serializations}, and Avro's color count with avro-mapred on {@code HADOOP_CLASSPATH}
   * and in {@code -libjars}. The same bytes on both engines (Avro's through its dump, since every
   * Avro file carries a random sync marker).
   */
  @Test
  @Order(3)
  void jobsBuiltOnHadoopsLibraryAndOnAvroWriteTheSameOnBothEngines() throws Exception {
    Path inputs = libraryInputs();
    fs("-put", inputs.toString(), "/library-in");
    String avroLibs = String.join(":", AVRO.libraries());
    String avroLibjars = String.join(",", AVRO.libraries());
    Run.Result users = vivaceWith(avroLibs, "jar", AVRO.jar(), "io.vivace.jobs.avro.GenerateUsers",
        "/library-in/users", "3", "800", "23");
    assertEquals(0, users.exitCode(), users.describe());

    ExecutorService pool = Executors.newFixedThreadPool(ENGINES.size());
    List<Future<?>> runs = new ArrayList<>();
    try {
      for (Map.Entry<String, List<String>> engine : ENGINES.entrySet()) {
        String out = "/library/" + engine.getKey();
        List<String> flag = engine.getValue();
        runs.add(pool.submit(() -> timed(engine.getKey() + ": library and Avro jobs", () -> {
          libraryJob(flag, "ReduceSideJoin", "/library-in/customers", "/library-in/orders", out + "/join");
          libraryJob(flag, "CustomSerializationCount", "/library-in/points", out + "/own-serialization");
          List<String> colorCount = new ArrayList<>(List.of("jar", AVRO.jar(), "io.vivace.jobs.avro.ColorCount",
              "-libjars", avroLibjars));
          colorCount.addAll(flag);
          colorCount.addAll(List.of("/library-in/users", out + "/colors"));
          Run.Result colors = vivaceWith(avroLibs, colorCount.toArray(new String[0]));
          assertEquals(0, colors.exitCode(), colors.describe());
          return null;
        })));
      }
      for (Future<?> run : runs) {
        run.get();
      }
    } finally {
      pool.shutdownNow();
    }

    timed("fetching the outputs", () -> fs("-get", "/library", work.resolve("library").toString()));
    for (String output : List.of("join", "own-serialization")) {
      assertSameParts(work.resolve("library/mapreduce-yarn").resolve(output),
          work.resolve("library/vivace-yarn").resolve(output));
    }
    Run.Result dumps = vivaceWith(avroLibs, "jar", AVRO.jar(), "io.vivace.jobs.avro.AvroDump",
        "/library/mapreduce-yarn/colors", "/library-dumps/mapreduce-yarn", "/library/vivace-yarn/colors",
        "/library-dumps/vivace-yarn");
    assertEquals(0, dumps.exitCode(), dumps.describe());
    String expected = fsQuiet("-cat", "/library-dumps/mapreduce-yarn");
    assertTrue(expected.contains("part-r-"), "no Avro part files in the dump:\n" + expected);
    assertEquals(expected, fsQuiet("-cat", "/library-dumps/vivace-yarn"));
  }

  private void libraryJob(List<String> engine, String program, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("jar", LIBRARY.jar(), "io.vivace.jobs.library." + program));
    command.addAll(engine);
    command.addAll(List.of(args));
    Run.Result result = vivace(command.toArray(new String[0]));
    assertEquals(0, result.exitCode(), result.describe());
  }

  /** Customers and orders (id,fields lines; ids that match and ids that do not) and points. */
  private Path libraryInputs() throws IOException {
    Path in = work.resolve("library-in");
    Random random = new Random(17);
    writeLines(in.resolve("customers"), 3, 400, i -> "c" + random.nextInt(300) + ",name" + i + ",city" + random.nextInt(20));
    writeLines(in.resolve("orders"), 4, 900, i -> "c" + random.nextInt(350) + ",order" + i + "," + random.nextInt(10_000));
    writeLines(in.resolve("points"), 3, 2_000, i -> (random.nextInt(40) - 20) + " " + (random.nextInt(40) - 20));
    return in;
  }

  private static void writeLines(Path dir, int files, int linesPerFile, IntFunction<String> line)
      throws IOException {
    Files.createDirectories(dir);
    for (int f = 0; f < files; f++) {
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < linesPerFile; i++) {
        text.append(line.apply(f * linesPerFile + i)).append('\n');
      }
      Files.writeString(dir.resolve("part-" + f + ".txt"), text);
    }
  }

  /** A module of conformance-jobs/: its job jar and the jars it ships with -libjars. */
  private record JobJar(String jar, List<String> libraries) {
    static JobJar of(String module) {
      Path build = HOME.resolve("conformance-jobs").resolve(module).resolve("target");
      try (Stream<Path> libs = Files.exists(build.resolve("lib")) ? Files.list(build.resolve("lib")) : Stream.empty()) {
        return new JobJar(build.resolve("job.jar").toString(),
            libs.map(Path::toString).filter(n -> n.endsWith(".jar")).sorted().toList());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  @Test
  @Order(4)
  void theSleepJobRunsOnTheSessionWithNothingButItsJobJar() throws Exception {
    Run.Result sleep = timed("the sleep job", () -> vivace("jar", WORKLOADS.toString(), "io.vivace.workloads.SplitKeepingSleepJob",
        "-D", "vivace.master=yarn", "-m", "3", "-r", "1", "-mt", "1", "-rt", "1"));
    assertEquals(0, sleep.exitCode(), sleep.describe());
    assertEquals(3, counter(sleep, "Launched map tasks"), sleep.describe());
  }

  /** docs/cluster.md's first commands, as written, with a real job jar for "my-job.jar". */
  @Test
  @Order(5)
  void theClusterPagesCommandsRunAsWritten() throws Exception {
    putWordCountInput();
    String block = DocCommands.shellBlocks(HOME.resolve("docs/cluster.md")).get(0);
    String script = DocCommands.substitute(block, Map.of(
        "/etc/hadoop/conf", dir.resolve("conf").toString(),
        "./vivace", LAUNCHER.toString(),
        "my-job.jar", EXAMPLES + " wordcount"));
    Run.Result result = null;
    try {
      result = timed("docs/cluster.md's commands", () -> bash(script, work));
    } finally {
      if (result == null || result.exitCode() != 0) {
        for (String named : List.of("nightly", "warm")) {
          vivace("session", "stop", named); // what the page starts, left by a command that failed before its stop
        }
      }
    }
    assertEquals(0, result.exitCode(), result.describe());
    assertTrue(result.stdout().lines().anyMatch(l -> l.contains("\tdefault\tRUNNING\t")),
        "session list names the session the job started:\n" + result.describe());
    fs("-get", "out", work.resolve("cluster-page-out").toString());
    assertEquals(expectedWordCounts(), wordCounts(work.resolve("cluster-page-out")));
  }

  /**
   * docs/hadoop-cluster.md's commands, as written: the release unpacked, a job through Apache's
   * {@code hadoop jar} (RunJar on the cluster's class path and the release's lib/*), then through
   * the release's own launcher. The session the earlier tests
   * used is stopped first, so the first of these jobs starts one from its own class path.
   */
  @Test
  @Order(6)
  void theInstallPagesCommandsRunAsWrittenWithTheRelease() throws Exception {
    assertTrue(Files.isRegularFile(RELEASE), "the build made no release " + RELEASE);
    putWordCountInput();
    Run.Result stopped = timed("stopping the session", () -> vivace("session", "stop"));
    assertEquals(0, stopped.exitCode(), stopped.describe());

    Path opt = Files.createDirectories(work.resolve("opt"));
    Path hadoopHome = dir.resolve("hadoop");
    StringBuilder script = new StringBuilder()
        .append("export HADOOP_HOME=").append(hadoopHome).append('\n')
        .append("export HADOOP_CONF_DIR=").append(dir.resolve("conf")).append('\n')
        .append("export HADOOP_CLIENT_OPTS=\"").append(hostsOption()).append("\"\n")
        .append("export VIVACE_CDS=off\n")
        // Apache's `hadoop jar`: RunJar, the configuration folder, the installation's jars in the
        // order `hadoop classpath` prints them, then HADOOP_CLASSPATH; hadoop-env.sh read first.
        .append("hadoop() {\n")
        .append("  [[ $1 == jar ]] || { echo \"this hadoop runs jar only\" >&2; return 2; }\n")
        .append("  shift\n")
        .append("  [[ -f $HADOOP_CONF_DIR/hadoop-env.sh ]] && . \"$HADOOP_CONF_DIR/hadoop-env.sh\"\n")
        .append("  local share=$HADOOP_HOME/share/hadoop\n")
        .append("  \"").append(Path.of(System.getProperty("java.home"), "bin", "java"))
        .append("\" ${HADOOP_OPTS:-} ${HADOOP_CLIENT_OPTS:-} -cp \"$HADOOP_CONF_DIR:$share/common/lib/*:")
        .append("$share/common/*:$share/hdfs:$share/hdfs/lib/*:$share/hdfs/*:$share/mapreduce/*:")
        .append("$share/yarn:$share/yarn/lib/*:$share/yarn/*:${HADOOP_CLASSPATH:-}\" ")
        .append("org.apache.hadoop.util.RunJar \"$@\"\n")
        .append("}\n");
    String commands = String.join("", DocCommands.shellBlocks(HOME.resolve("docs/hadoop-cluster.md")));
    script.append(DocCommands.substitute(commands, Map.of(
        "/opt", opt.toString(),
        "/etc/hadoop/conf", dir.resolve("conf").toString())));
    Run.Result result = timed("docs/hadoop-cluster.md's commands", () -> bash(script.toString(), RELEASE.getParent()));
    assertEquals(0, result.exitCode(), result.describe());
    Map<String, Integer> expected = expectedWordCounts();
    for (String out : List.of("out-hadoop-jar", "out-vivace")) {
      fs("-get", out, work.resolve(out).toString());
      assertEquals(expected, wordCounts(work.resolve(out)), out);
    }
  }

  @Test
  @Order(7)
  void aSlowWorkerHoldsNeitherEngineAndTheOutputsStayTheSame() throws Exception {
    faults.slowWorker();
  }

  @Test
  @Order(8)
  void aWorkerLostInTheMiddleOfASessionJobCostsOnlyItsWork() throws Exception {
    faults.loseAWorkerDuring(Engine.SESSION);
  }

  @Test
  @Order(9)
  void downLeavesNoProcessNamespaceLinkOrHostsFile() throws Exception {
    Run.Result down = timed("down", () -> cluster("down", "--dir", dir.toString()));
    assertEquals(0, down.exitCode(), down.describe());
    String namespaces = run("ip", "netns", "list").stdout();
    String links = run("ip", "-o", "link", "show").stdout();
    for (String host : hosts) {
      assertFalse(namespaces.contains(host), "namespace " + host + " left:\n" + namespaces);
      assertFalse(links.contains(" " + host + "@") || links.contains(" " + host + ":"), "link " + host + " left");
      assertFalse(Files.exists(Path.of("/etc/netns", host)), "/etc/netns/" + host + " left");
    }
    assertFalse(links.contains(" " + bridge + ":"), "bridge " + bridge + " left:\n" + links);
    assertEquals(List.of(), processesNaming(dir), "processes of the cluster left");
    Run.Result status = cluster("status", "--dir", dir.toString());
    assertEquals(1, status.exitCode(), status.describe());
    assertTrue(status.stdout().contains("no cluster"), status.describe());
  }

  // ---- checks

  private static long partBytes(Path dir) throws IOException {
    long bytes = 0;
    for (String name : partNames(dir)) {
      bytes += Files.size(dir.resolve(name));
    }
    return bytes;
  }

  /**
   * Every block of the input is on every worker (replication 3) and every split lists them all, so a
   * map that ran on a worker ran where its data is: the job's locality counters say so only if the
   * engine names the hosts as HDFS does. The attempts' hosts come from what each engine keeps of
   * the job.
   */
  private void assertMapsRanDataLocalOnTheWorkers(Run.Result sort, HostsOfJob hostsOf) throws Exception {
    int maps = counter(sort, "Launched map tasks");
    assertTrue(maps >= 1, sort.describe());
    assertEquals(maps, counter(sort, "Data-local map tasks"), "every map data-local\n" + sort.describe());
    String jobId = jobId(sort);
    Set<String> attemptHosts = Set.of();
    for (int tries = 0; tries < 30 && attemptHosts.isEmpty(); tries++) {
      if (tries > 0) {
        Thread.sleep(2_000); // the history is written as the job ends
      }
      attemptHosts = hostsOf.of(jobId);
    }
    assertFalse(attemptHosts.isEmpty(), jobId + ": no attempt hosts");
    assertTrue(workers.containsAll(attemptHosts), jobId + "'s attempts ran on " + attemptHosts
        + ", the workers are " + workers);
  }

  interface HostsOfJob {
    Set<String> of(String jobId) throws Exception;
  }

  /** The hosts Vivace's job history on HDFS names: each attempt's executor and its host. */
  private Set<String> historyHosts(String path) throws Exception {
    return matches(Pattern.compile("\"slot\":\"executor \\d+ \\(([^,]+),"), fsQuiet("-cat", path));
  }

  /** The hosts of the job's map attempts, from the JobHistory server's REST API. */
  private Set<String> historyServerHosts(String jobId) throws Exception {
    String jobs = "http://" + master.address() + ":" + master.port(Daemon.Port.JHS_WEB)
        + "/ws/v1/history/mapreduce/jobs/" + jobId;
    Set<String> hosts = new TreeSet<>();
    for (String task : matches(Pattern.compile("\"id\"\\s*:\\s*\"(task_[^\"]+)\""), get(jobs + "/tasks?type=m"))) {
      hosts.addAll(matches(Pattern.compile("\"nodeHttpAddress\"\\s*:\\s*\"([^\":]+)"),
          get(jobs + "/tasks/" + task + "/attempts")));
    }
    return hosts;
  }

  private static String jobId(Run.Result job) {
    Matcher m = Pattern.compile("Job (job_\\d+_\\d+) completed successfully").matcher(job.stderr());
    assertTrue(m.find(), "no job id in\n" + job.describe());
    return m.group(1);
  }

  private Map<String, Integer> expectedWordCounts() throws IOException {
    Map<String, Integer> counts = new TreeMap<>();
    for (String file : TEXT_FILES) {
      StringTokenizer words = new StringTokenizer(Files.readString(TEXT.resolve(file), StandardCharsets.UTF_8));
      while (words.hasMoreTokens()) {
        counts.merge(words.nextToken(), 1, Integer::sum);
      }
    }
    return counts;
  }

  private static Map<String, Integer> wordCounts(Path output) throws IOException {
    Map<String, Integer> counts = new TreeMap<>();
    for (String name : partNames(output)) {
      for (String line : Files.readAllLines(output.resolve(name), StandardCharsets.UTF_8)) {
        int tab = line.lastIndexOf('\t');
        counts.put(line.substring(0, tab), Integer.parseInt(line.substring(tab + 1)));
      }
    }
    return counts;
  }

  private static List<Long> processesNaming(Path dir) throws IOException {
    List<Long> found = new ArrayList<>();
    String marker = dir + "/";
    try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
      for (Path entry : entries.toList()) {
        String name = entry.getFileName().toString();
        if (name.chars().allMatch(Character::isDigit)
            && ClusterProcesses.commandLine(Long.parseLong(name)).contains(marker)) {
          found.add(Long.parseLong(name));
        }
      }
    }
    return found;
  }

  // ---- commands

  /** The docs' relative paths ("in", "out") are under the user's home on HDFS. */
  private void putWordCountInput() throws Exception {
    if (!wordCountInputPut) {
      fs("-mkdir", "-p", "/user/" + System.getProperty("user.name"));
      fs("-put", localText().toString(), "in");
      wordCountInputPut = true;
    }
  }

  /** The text the word counts count, in a local folder of its own. */
  private Path localText() throws IOException {
    Path text = work.resolve("text");
    if (!Files.isDirectory(text)) {
      Files.createDirectories(text);
      for (String file : TEXT_FILES) {
        Files.copy(TEXT.resolve(file), text.resolve(file));
      }
    }
    return text;
  }


  private String fsQuiet(String... args) throws Exception {
    return client.fsRun(args).stdout();
  }

  private Run.Result cluster(String... args) throws Exception {
    return client.cluster(args);
  }

  private Run.Result vivace(String... args) throws Exception {
    return client.vivace(args);
  }

  private Run.Result examples(List<String> engine, String program, String... args) throws Exception {
    return client.examples(engine, program, args);
  }

  private void fs(String... args) throws Exception {
    client.fs(args);
  }

  /** {@code ./vivace ...} as {@link #vivace}, with {@code HADOOP_CLASSPATH} set. */
  private Run.Result vivaceWith(String hadoopClasspath, String... args) throws Exception {
    return client.vivaceWith(hadoopClasspath, args);
  }

  private String hostsOption() {
    return client.hostsOption();
  }

  private Run.Result bash(String script, Path directory) throws Exception {
    return new Run(List.of("bash", "-euo", "pipefail", "-c", script)).env("HADOOP_CLIENT_OPTS", hostsOption())
        .in(directory).timeoutSeconds(1800).run();
  }

  private static Run.Result run(String... command) throws Exception {
    return new Run(List.of(command)).timeoutSeconds(60).run();
  }
}
