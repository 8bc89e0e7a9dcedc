package io.vivace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.StringTokenizer;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.apache.hadoop.util.VersionInfo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code ./vivace} launcher, run as a process: commands, class path, exit codes, messages. */
@Tag("integration")
class LauncherTest {


  /** A Tool that prints what reached it: -D values, a -libjars class, a HADOOP_CLASSPATH file. */
  private static final String PRINT_CONF_SOURCE = """
      package launchertest;

      import java.net.URL;
      import java.nio.charset.StandardCharsets;
      import org.apache.hadoop.conf.Configuration;
      import org.apache.hadoop.conf.Configured;
      import org.apache.hadoop.mapred.JobConf;
      import org.apache.hadoop.util.Tool;
      import org.apache.hadoop.util.ToolRunner;

      public class PrintConf extends Configured implements Tool {
        public int run(String[] args) throws Exception {
          Configuration conf = getConf();
          System.out.println("greeting=" + conf.get("launchertest.greeting"));
          System.out.println("framework=" + new JobConf(conf).get("mapreduce.framework.name"));
          String libClass = conf.get("launchertest.libclass");
          if (libClass != null) {
            Object helper = conf.getClassByName(libClass).getDeclaredConstructor().newInstance();
            System.out.println("libjar=" + helper);
          }
          URL extra = Thread.currentThread().getContextClassLoader()
              .getResource("launchertest-extra.txt");
          System.out.println("extra=" + (extra == null ? null
              : new String(extra.openStream().readAllBytes(), StandardCharsets.UTF_8).trim()));
          System.out.println("args=" + String.join(",", args));
          return conf.getInt("launchertest.exit", 0);
        }

        public static void main(String[] args) throws Exception {
          System.exit(ToolRunner.run(new PrintConf(), args));
        }
      }
      """;

  private static final String HELPER_SOURCE = """
      package launchertest.lib;

      public class Helper {
        public String toString() {
          return "helper";
        }
      }
      """;

  private static final String IN_CLASSES_DIR_SOURCE = """
      package launchertest.nested;

      public class InClassesDir {
        public String toString() {
          return "from classes/";
        }
      }
      """;

  private static final String USES_NESTED_SOURCE = """
      package launchertest;

      public class UsesNested {
        public static void main(String[] args) {
          System.out.println("lib=" + new launchertest.lib.Helper());
          System.out.println("classes=" + new launchertest.nested.InClassesDir());
          ClassLoader loader = Thread.currentThread().getContextClassLoader();
          System.out.println("loader=" + loader.getClass().getSimpleName());
          System.out.println("args=" + String.join(",", args));
        }
      }
      """;

  /** A map-only job whose mapper class exists only in a -libjars jar. */
  private static final String LIB_MAPPER_JOB_SOURCE = """
      package launchertest;

      import org.apache.hadoop.conf.Configured;
      import org.apache.hadoop.fs.Path;
      import org.apache.hadoop.mapreduce.Job;
      import org.apache.hadoop.mapreduce.Mapper;
      import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
      import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
      import org.apache.hadoop.util.Tool;
      import org.apache.hadoop.util.ToolRunner;

      public class LibMapperJob extends Configured implements Tool {
        @SuppressWarnings("unchecked")
        public int run(String[] args) throws Exception {
          Job job = Job.getInstance(getConf(), "lib mapper");
          job.setJarByClass(LibMapperJob.class);
          job.setMapperClass((Class<? extends Mapper>) getConf().getClassByName(
              "launchertest.lib.UpperMapper"));
          job.setNumReduceTasks(0);
          FileInputFormat.addInputPath(job, new Path(args[0]));
          FileOutputFormat.setOutputPath(job, new Path(args[1]));
          return job.waitForCompletion(true) ? 0 : 1;
        }

        public static void main(String[] args) throws Exception {
          System.exit(ToolRunner.run(new LibMapperJob(), args));
        }
      }
      """;

  private static final String UPPER_MAPPER_SOURCE = """
      package launchertest.lib;

      import java.io.IOException;
      import org.apache.hadoop.io.LongWritable;
      import org.apache.hadoop.io.Text;
      import org.apache.hadoop.mapreduce.Mapper;

      public class UpperMapper extends Mapper<LongWritable, Text, LongWritable, Text> {
        protected void map(LongWritable key, Text value, Context context)
            throws IOException, InterruptedException {
          context.write(key, new Text(value.toString().toUpperCase()));
        }
      }
      """;

  private static final String FAILS_SOURCE = """
      package launchertest;

      public class Fails {
        public static void main(String[] args) {
          throw new IllegalStateException("launcher test failure");
        }
      }
      """;

  @TempDir
  static Path jarsDir;

  /** PrintConf, with a Main-Class. */
  private static Path toolJar;
  /** Helper alone, for -libjars. */
  private static Path helperJar;
  /** UsesNested, with Helper in lib/helper.jar and InClassesDir under classes/. */
  private static Path nestedJar;
  /** Fails, without a Main-Class. */
  private static Path plainJar;
  /** LibMapperJob, with a Main-Class; its mapper is in {@link #mapperJar}. */
  private static Path libMapperJobJar;
  /** UpperMapper alone, for -libjars. */
  private static Path mapperJar;

  @TempDir
  Path workDir;

  @BeforeAll
  static void buildJars() throws IOException {
    Path helperClasses = compile("launchertest.lib.Helper", HELPER_SOURCE);
    helperJar = new TestJars.Builder().classes(helperClasses, "").writeTo(jar("helper"));

    toolJar = new TestJars.Builder().mainClass("launchertest.PrintConf")
        .classes(compile("launchertest.PrintConf", PRINT_CONF_SOURCE), "")
        .writeTo(jar("tool"));

    Path inClassesDir = compile("launchertest.nested.InClassesDir", IN_CLASSES_DIR_SOURCE);
    Path usesNested = TestJars.compile(jarsDir,
        Map.of("launchertest.UsesNested", USES_NESTED_SOURCE), helperClasses, inClassesDir);
    nestedJar = new TestJars.Builder().mainClass("launchertest.UsesNested")
        .classes(usesNested, "")
        .classes(inClassesDir, "classes/")
        .entry("lib/helper.jar", Files.readAllBytes(helperJar))
        .writeTo(jar("nested"));

    plainJar = new TestJars.Builder().classes(compile("launchertest.Fails", FAILS_SOURCE), "")
        .writeTo(jar("no-main-class"));

    mapperJar = new TestJars.Builder()
        .classes(compile("launchertest.lib.UpperMapper", UPPER_MAPPER_SOURCE), "")
        .writeTo(jar("upper-mapper"));
    libMapperJobJar = new TestJars.Builder().mainClass("launchertest.LibMapperJob")
        .classes(compile("launchertest.LibMapperJob", LIB_MAPPER_JOB_SOURCE), "")
        .writeTo(jar("lib-mapper-job"));
  }

  private static Path compile(String className, String source) throws IOException {
    return TestJars.compile(jarsDir, Map.of(className, source));
  }

  private static Path jar(String name) {
    return jarsDir.resolve(name + ".jar");
  }

  private VivaceScript vivace() {
    return new VivaceScript(workDir);
  }

  private static String[] concat(String[]... parts) {
    return Stream.of(parts).flatMap(Arrays::stream).toArray(String[]::new);
  }

  /** Generic options every job here gets; the framework is the launcher's default (Vivace). */
  private String[] jobOptions() {
    return new String[] {"-D", "hadoop.tmp.dir=" + workDir.resolve("hadoop-tmp")};
  }

  private static void assertContains(String expected, String actual, VivaceScript.Result result) {
    assertTrue(actual.contains(expected), "expected \"" + expected + "\" in\n" + result.describe());
  }

  // ---- commands and usage

  @Test
  void noArgumentsPrintsUsageAndFails() throws Exception {
    VivaceScript.Result result = vivace().run();
    assertEquals(1, result.exitCode(), result.describe());
    assertContains("Usage: vivace", result.stderr(), result);
  }

  @Test
  void unknownCommandPrintsUsageAndFails() throws Exception {
    VivaceScript.Result result = vivace().run("frobnicate");
    assertEquals(1, result.exitCode(), result.describe());
    assertContains("unknown command: frobnicate", result.stderr(), result);
    assertContains("Usage: vivace", result.stderr(), result);
  }

  // ---- classpath

  @Test
  void classpathListsConfDirHadoopRuntimeAndHadoopClasspath() throws Exception {
    Path extra = workDir.resolve("extra.jar");
    VivaceScript.Result result =
        vivace().env("HADOOP_CLASSPATH", extra.toString()).run("classpath");
    assertEquals(0, result.exitCode(), result.describe());
    List<String> entries = List.of(result.stdout().trim().split(File.pathSeparator));

    assertEquals(VivaceScript.repositoryRoot().resolve("conf").toString(), entries.get(0));
    assertTrue(entries.stream().anyMatch(e -> e.matches(".*/hadoop-common-[^/]*\\.jar")),
        result.stdout());
    // The runtime jar once packaged; target/classes in these tests, which run before `package`.
    Path runtime =
        Path.of(VivaceCli.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertTrue(entries.stream().anyMatch(e -> Path.of(e).equals(runtime)),
        "runtime " + runtime + " missing from " + result.stdout());
    assertEquals(extra.toString(), entries.get(entries.size() - 1));
  }

  @Test
  void classpathPutsUserClasspathFirstOnRequestAndHonoursHadoopConfDir() throws Exception {
    Path extra = workDir.resolve("extra.jar");
    Path confDir = Files.createDirectories(workDir.resolve("my-conf"));
    VivaceScript.Result result = vivace().env("HADOOP_CLASSPATH", extra.toString())
        .env("HADOOP_USER_CLASSPATH_FIRST", "true")
        .env("HADOOP_CONF_DIR", confDir.toString())
        .run("classpath");
    assertEquals(0, result.exitCode(), result.describe());
    List<String> entries = List.of(result.stdout().trim().split(File.pathSeparator));
    assertEquals(List.of(extra.toString(), confDir.toString()), entries.subList(0, 2));
    assertTrue(entries.stream().noneMatch(e -> e.endsWith("/conf")), result.stdout());
  }

  @Test
  void runtimesClassPathHoldsNoJobOrTestJarOfHadoops() {
    // This JVM's class path is the runtime's dependencies and JUnit's.
    List<String> jobJars = Arrays.stream(VivaceScript.testClassPath().split(File.pathSeparator))
        .map(entry -> Path.of(entry).getFileName().toString())
        .filter(name -> name.startsWith("hadoop-")
            && (name.contains("-examples") || name.endsWith("-tests.jar")))
        .toList();
    assertEquals(List.of(), jobJars);
  }

  // ---- classpath and fs: what tools written for `hadoop classpath` and `hadoop fs` expect

  @Test
  void classpathsConfFolderHasTheClientSiteFilesAndHadoopsFsShellRunsOnIt() throws Exception {
    Path listed = Files.createDirectories(workDir.resolve("listed"));
    Files.writeString(listed.resolve("file.txt"), "x\n");
    VivaceScript.Result classpath = vivace().run("classpath");
    assertEquals(0, classpath.exitCode(), classpath.describe());
    String printed = classpath.stdout().trim();
    Path conf = Path.of(printed.split(File.pathSeparator)[0]);
    for (String site : List.of("core-site.xml", "hdfs-site.xml", "mapred-site.xml", "yarn-site.xml")) {
      assertTrue(Files.isRegularFile(conf.resolve(site)), site + " missing from " + conf);
    }

    VivaceScript.Result ls = vivace().runJava(printed, "org.apache.hadoop.fs.FsShell", "-ls",
        listed.toString());
    assertEquals(0, ls.exitCode(), ls.describe());
    assertContains(listed.resolve("file.txt").toString(), ls.stdout(), ls);
  }

  @Test
  void fsShellFailsOnAClasspathWhoseConfFolderHasNoCoreSite() throws Exception {
    Path emptyConf = Files.createDirectories(workDir.resolve("empty-conf"));
    VivaceScript.Result classpath =
        vivace().env("HADOOP_CONF_DIR", emptyConf.toString()).run("classpath");
    assertEquals(0, classpath.exitCode(), classpath.describe());

    VivaceScript.Result ls = vivace().runJava(classpath.stdout().trim(),
        "org.apache.hadoop.fs.FsShell", "-ls", workDir.toString());
    assertNotEquals(0, ls.exitCode(), ls.describe());
    assertContains("core-site.xml not found", ls.stderr(), ls);
  }

  @Test
  void fsIsHadoopsFsShell() throws Exception {
    Path local = workDir.resolve("local.txt");
    Files.writeString(local, "hello, fs\n");
    Path dir = workDir.resolve("dir");
    Path copy = dir.resolve("copy.txt");

    VivaceScript.Result mkdir = vivace().run("fs", "-mkdir", "-p", dir.toString());
    assertEquals(0, mkdir.exitCode(), mkdir.describe());
    VivaceScript.Result put = vivace().run("fs", "-put", local.toString(), copy.toString());
    assertEquals(0, put.exitCode(), put.describe());
    assertEquals("hello, fs\n", Files.readString(copy));

    VivaceScript.Result ls = vivace().run("fs", "-ls", dir.toString());
    assertEquals(0, ls.exitCode(), ls.describe());
    assertContains("Found 1 items", ls.stdout(), ls);
    assertContains(copy.toString(), ls.stdout(), ls);

    VivaceScript.Result cat = vivace().run("fs", "-D", "io.file.buffer.size=512", "-cat",
        copy.toString());
    assertEquals(0, cat.exitCode(), cat.describe());
    assertEquals("hello, fs\n", cat.stdout());

    Path missing = workDir.resolve("missing.txt");
    VivaceScript.Result catMissing = vivace().run("fs", "-cat", missing.toString());
    assertEquals(1, catMissing.exitCode(), catMissing.describe());
    assertContains(missing + "': No such file or directory", catMissing.stderr(), catMissing);
  }

  /**
   * STAC's command, run as with a Hadoop install, in a Vivace home with its own build: the tests
   * jar's program driver needs hadoop-common's tests jar (TestSequenceFile), which the runtime
   * does not depend on and an install's `hadoop classpath` holds, as it holds the jobclient tests
   * jar; so does `./vivace classpath`, after the runtime's dependencies.
   */
  @Test
  void jobclientTestsJarsSleepRunsOnTheBuildsClasspathAsOnAHadoopInstall() throws Exception {
    Path home = VivaceHome.create(workDir.resolve("home"));
    VivaceScript script = new VivaceScript(workDir, home.resolve("vivace")).withItsOwnClassPath()
        .env("VIVACE_CDS", "off");
    VivaceScript.Result classpath = script.run("classpath");
    assertEquals(0, classpath.exitCode(), classpath.describe());
    List<String> entries = List.of(classpath.stdout().trim().split(File.pathSeparator));
    Path share = home.resolve("runtime/target/hadoop/share");
    List<String> shareJars = List.of(share.resolve("hadoop-common-tests.jar").toString(),
        share.resolve("hadoop-mapreduce-client-jobclient-tests.jar").toString());
    assertEquals(shareJars, entries.subList(entries.size() - 2, entries.size()));
    assertEquals(shareJars, entries.stream().filter(entry -> entry.endsWith("-tests.jar")).toList());

    VivaceScript.Result sleep = script.run("jar", shareJars.get(1),
        "sleep", "-D", "hadoop.tmp.dir=" + workDir.resolve("hadoop-tmp"),
        "-m", "20", "-r", "1", "-mt", "1", "-rt", "1");
    assertEquals(0, sleep.exitCode(), sleep.describe());
    assertContains("Launched map tasks=20", sleep.stderr(), sleep);
    assertContains("Reduce input records=20", sleep.stderr(), sleep);
  }

  // ---- demo

  @Test
  void demoRunsApachesExamplesAsJobJarsAndChecksTheirOutput() throws Exception {
    VivaceScript.Result result = vivace().env("VIVACE_DEMO_ROWS", "2000").run("demo");
    assertEquals(0, result.exitCode(), result.describe());
    for (String line : List.of("==> vivace examples teragen 2000 ",
        "terasort output: 2000 rows, in order", "counts as expected", "demo passed")) {
      assertContains(line, result.stdout(), result);
    }
    try (Stream<Path> runs = Files.list(workDir.resolve("vivace-demo"))) {
      Path run = runs.findFirst().orElseThrow();
      assertFalse(Files.exists(run.resolve("tera-in")), "terasort's input left in " + run);
      assertTrue(Files.isRegularFile(run.resolve("wc-out/_SUCCESS")), "no word counts in " + run);
    }
  }

  @Test
  void demoRefusesARowCountThatIsNotANumber() throws Exception {
    VivaceScript.Result result = vivace().env("VIVACE_DEMO_ROWS", "many").run("demo");
    assertEquals(1, result.exitCode(), result.describe());
    assertContains("VIVACE_DEMO_ROWS must be a number of rows above 0, not: many", result.stderr(),
        result);
  }

  // ---- jar and examples: Apache's example jobs

  @Test
  void wordcountCountsWords() throws Exception {
    Path input = Files.createDirectories(workDir.resolve("in"));
    Files.writeString(input.resolve("one.txt"),
        "the quick brown fox\njumps over the lazy dog\n\tthe  end\n");
    Files.writeString(input.resolve("two.txt"), "fox fox café\r\nDog dog-eared the\n");
    Path output = workDir.resolve("out");

    VivaceScript.Result result = vivace().run(concat(
        new String[] {"jar", VivaceScript.examplesJar().toString(), "wordcount"},
        jobOptions(),
        new String[] {input.toString(), output.toString()}));

    assertEquals(0, result.exitCode(), result.describe());
    assertEquals(expectedWordCounts(input), wordCountsIn(output));
    assertTrue(result.stderr().contains("Job job_") && !result.stderr().contains("job_local"),
        "the default framework must be Vivace\n" + result.describe());
  }

  @Test
  void frameworkLocalRunsTheSameJarOnApachesLocalJobRunner() throws Exception {
    Path input = Files.createDirectories(workDir.resolve("in"));
    Files.writeString(input.resolve("one.txt"), "to be or not to be\n");
    Path output = workDir.resolve("out");

    VivaceScript.Result result = vivace().run(concat(
        new String[] {"jar", VivaceScript.examplesJar().toString(), "wordcount",
            "-D", "mapreduce.framework.name=local"},
        jobOptions(),
        new String[] {input.toString(), output.toString()}));

    assertEquals(0, result.exitCode(), result.describe());
    assertContains("job_local", result.stderr(), result);
    assertEquals(expectedWordCounts(input), wordCountsIn(output));
  }

  @Test
  void libjarsClassesAreVisibleToTasks() throws Exception {
    Path input = Files.createDirectories(workDir.resolve("in"));
    Files.writeString(input.resolve("lines.txt"), "alpha\nBeta\n");
    Path output = workDir.resolve("out");

    VivaceScript.Result result = vivace().run(concat(
        new String[] {"jar", libMapperJobJar.toString(), "-libjars", mapperJar.toString()},
        jobOptions(),
        new String[] {input.toString(), output.toString()}));

    assertEquals(0, result.exitCode(), result.describe());
    assertEquals(List.of("0\tALPHA", "6\tBETA"),
        Files.readAllLines(output.resolve("part-m-00000"), StandardCharsets.UTF_8));
  }

  @Test
  void failingJobExitsNonZeroWithHadoopsMessage() throws Exception {
    Path missing = workDir.resolve("no-such-input");
    VivaceScript.Result result = vivace().run(concat(
        new String[] {"examples", "wordcount"},
        jobOptions(),
        new String[] {missing.toString(), workDir.resolve("out").toString()}));
    assertNotEquals(0, result.exitCode(), result.describe());
    assertContains("Input path does not exist", result.stderr(), result);
  }

  /** Counts as WordCount's mapper tokenizes: a StringTokenizer over each line. */
  private static Map<String, Integer> expectedWordCounts(Path inputDir) throws IOException {
    Map<String, Integer> counts = new TreeMap<>();
    try (Stream<Path> files = Files.list(inputDir)) {
      for (Path file : files.toList()) {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          StringTokenizer words = new StringTokenizer(line);
          while (words.hasMoreTokens()) {
            counts.merge(words.nextToken(), 1, Integer::sum);
          }
        }
      }
    }
    return counts;
  }

  private static Map<String, Integer> wordCountsIn(Path outputDir) throws IOException {
    Map<String, Integer> counts = new TreeMap<>();
    try (Stream<Path> files = Files.list(outputDir)) {
      for (Path part : files.filter(f -> f.getFileName().toString().startsWith("part-")).toList()) {
        for (String line : Files.readAllLines(part, StandardCharsets.UTF_8)) {
          String[] wordAndCount = line.split("\t");
          counts.put(wordAndCount[0], Integer.parseInt(wordAndCount[1]));
        }
      }
    }
    return counts;
  }

  // ---- jar: launching

  @Test
  void missingJarFailsNamingTheFile() throws Exception {
    Path missing = workDir.resolve("missing.jar");
    VivaceScript.Result result = vivace().run("jar", missing.toString());
    assertEquals(1, result.exitCode(), result.describe());
    assertContains("JAR does not exist or is not a normal file: " + missing, result.stderr(),
        result);
  }

  @Test
  void unknownMainClassFailsNamingTheClass() throws Exception {
    VivaceScript.Result result =
        vivace().run("jar", plainJar.toString(), "launchertest.NoSuchMain", "arg");
    assertEquals(1, result.exitCode(), result.describe());
    assertContains("ClassNotFoundException: launchertest.NoSuchMain", result.stderr(), result);
  }

  @Test
  void mainClassAfterTheJarRunsWhenTheManifestHasNoneAndItsExceptionFailsTheLaunch()
      throws Exception {
    VivaceScript.Result result = vivace().run("jar", plainJar.toString(), "launchertest/Fails");
    assertEquals(1, result.exitCode(), result.describe());
    assertContains(
        "Exception in thread \"main\" java.lang.IllegalStateException: launcher test failure",
        result.stderr(), result);
    assertContains("at launchertest.Fails.main", result.stderr(), result);
  }

  @Test
  void nestedLibJarsAndClassesDirAreOnTheJobClassPath() throws Exception {
    VivaceScript.Result result = vivace().run("jar", nestedJar.toString(), "one", "two");
    assertEquals(0, result.exitCode(), result.describe());
    assertEquals(
        List.of("lib=helper", "classes=from classes/", "loader=URLClassLoader", "args=one,two"),
        result.stdout().lines().toList());
    try (Stream<Path> left = Files.list(workDir)) {
      assertTrue(left.noneMatch(p -> p.getFileName().toString().startsWith("vivace-unjar-")),
          "unpacked jar left behind in " + workDir);
    }
  }

  @Test
  void toolGetsGenericOptionsLibjarsAndHadoopClasspath() throws Exception {
    Path extraJar = new TestJars.Builder()
        .entry("launchertest-extra.txt", "from HADOOP_CLASSPATH\n")
        .writeTo(workDir.resolve("extra.jar"));
    VivaceScript.Result result = vivace().env("HADOOP_CLASSPATH", extraJar.toString()).run(
        "jar", toolJar.toString(),
        "-D", "launchertest.greeting=hello",
        "-Dlaunchertest.libclass=launchertest.lib.Helper",
        "-libjars", helperJar.toString(),
        "a", "-D", "b");
    assertEquals(0, result.exitCode(), result.describe());
    assertEquals(
        List.of("greeting=hello", "framework=vivace", "libjar=helper",
            "extra=from HADOOP_CLASSPATH", "args=a,-D,b"),
        result.stdout().lines().toList());
  }

  @Test
  void programsExitCodeIsTheLaunchersAndUserConfDirReplacesVivaces() throws Exception {
    Path confDir = clusterLikeConfDir();
    VivaceScript.Result result = vivace().env("HADOOP_CONF_DIR", confDir.toString())
        .run("jar", toolJar.toString(), "-D", "launchertest.exit=3");
    assertEquals(3, result.exitCode(), result.describe());
    assertTrue(result.stdout().lines().toList().contains("greeting=from-my-conf"), result.describe());
  }

  @Test
  void aJavaTooNewForTheBuildsHadoopIsRefusedNamingBoth() throws Exception {
    // A JDK that says it is Java 25 (its release file) and runs this JVM's java: the launcher
    // must refuse it for Hadoop 3.4, whose UserGroupInformation fails there, before Hadoop does.
    Path jdk = workDir.resolve("jdk-25");
    Files.createDirectories(jdk.resolve("bin"));
    Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"25.0.1\"\n");
    Path java = jdk.resolve("bin/java");
    Files.writeString(java, "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java")
        + "' \"$@\"\n");
    assertTrue(java.toFile().setExecutable(true));
    String hadoop = VersionInfo.getVersion();

    VivaceScript.Result result = vivace().env("JAVA_HOME", jdk.toString())
        .run("jar", toolJar.toString());

    if (hadoop.compareTo("3.5") < 0) {
      assertEquals(1, result.exitCode(), result.describe());
      assertContains("Java 25 (", result.stderr(), result);
      assertContains(") cannot run Hadoop " + hadoop + ", which this build", result.stderr(), result);
      assertContains("-Dhadoop.version=3.5.0", result.stderr(), result);
    } else {
      assertEquals(0, result.exitCode(), result.describe());
    }
  }

  // ---- a cluster's client configuration: jobs still run on Vivace unless the command line says

  @Test
  void aSiteFilesFrameworkGivesWayToVivaceAndTheCommandLinesToNone() throws Exception {
    Path confDir = clusterLikeConfDir();
    VivaceScript.Result bySite = vivace().env("HADOOP_CONF_DIR", confDir.toString())
        .run("jar", toolJar.toString());
    assertEquals(0, bySite.exitCode(), bySite.describe());
    assertTrue(bySite.stdout().lines().toList().contains("framework=vivace"), bySite.describe());

    VivaceScript.Result byCommandLine = vivace().env("HADOOP_CONF_DIR", confDir.toString())
        .run("jar", toolJar.toString(), "-D", "mapreduce.framework.name=local");
    assertEquals(0, byCommandLine.exitCode(), byCommandLine.describe());
    assertTrue(byCommandLine.stdout().lines().toList().contains("framework=local"),
        byCommandLine.describe());
  }

  @Test
  void wordcountWithAClustersConfigurationRunsOnVivace() throws Exception {
    Path input = Files.createDirectories(workDir.resolve("in"));
    Files.writeString(input.resolve("one.txt"), "to be or not to be\n");
    Path output = workDir.resolve("out");

    VivaceScript.Result result = vivace().env("HADOOP_CONF_DIR", clusterLikeConfDir().toString())
        .run(concat(new String[] {"jar", VivaceScript.examplesJar().toString(), "wordcount"},
            jobOptions(), new String[] {input.toString(), output.toString()}));

    assertEquals(0, result.exitCode(), result.describe());
    assertEquals(expectedWordCounts(input), wordCountsIn(output));
    assertTrue(!result.stderr().contains("ResourceManager") && !result.stderr().contains("job_local"),
        "the job must run on Vivace, not on the site's YARN\n" + result.describe());
  }

  /**
   * A configuration folder as a cluster hands its users: {@code mapreduce.framework.name=yarn}, a
   * ResourceManager (here none listens there, and the client gives up on it at once).
   */
  private Path clusterLikeConfDir() throws IOException {
    Path confDir = Files.createDirectories(workDir.resolve("my-conf"));
    Files.writeString(confDir.resolve("core-site.xml"), """
        <?xml version="1.0"?>
        <configuration>
          <property><name>launchertest.greeting</name><value>from-my-conf</value></property>
        </configuration>
        """);
    Files.writeString(confDir.resolve("mapred-site.xml"), """
        <?xml version="1.0"?>
        <configuration>
          <property><name>mapreduce.framework.name</name><value>yarn</value></property>
        </configuration>
        """);
    Files.writeString(confDir.resolve("yarn-site.xml"), """
        <?xml version="1.0"?>
        <configuration>
          <property><name>yarn.resourcemanager.address</name><value>127.0.0.1:9</value></property>
          <property><name>yarn.resourcemanager.connect.max-wait.ms</name><value>1000</value></property>
        </configuration>
        """);
    return confDir;
  }
}
