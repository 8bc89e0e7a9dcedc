package io.vivace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The task sandbox seen through {@code ./vivace jar}, as a user runs a job jar: the jar's classes
 * (and its {@code -libjars}) have statics of their own per task, an exit in a task fails the job
 * while the driver's own {@code System.exit} is the launcher's status.
 */
@Tag("integration")
class SandboxLauncherTest {

  private static final String STATIC_KEY_JOB = """
      package sandboxtest;

      import java.io.IOException;
      import java.util.StringTokenizer;
      import org.apache.hadoop.conf.Configured;
      import org.apache.hadoop.fs.Path;
      import org.apache.hadoop.io.IntWritable;
      import org.apache.hadoop.io.LongWritable;
      import org.apache.hadoop.io.Text;
      import org.apache.hadoop.mapreduce.Job;
      import org.apache.hadoop.mapreduce.Mapper;
      import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
      import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
      import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
      import org.apache.hadoop.util.Tool;
      import org.apache.hadoop.util.ToolRunner;

      public class StaticKeyCount extends Configured implements Tool {
        public static class Tokens extends Mapper<LongWritable, Text, Text, IntWritable> {
          private static final Text WORD = new Text();
          private static final IntWritable ONE = new IntWritable(1);

          protected void map(LongWritable key, Text value, Context context)
              throws IOException, InterruptedException {
            if (value.toString().equals("exit")) {
              System.exit(3);
            }
            StringTokenizer words = new StringTokenizer(value.toString());
            while (words.hasMoreTokens()) {
              WORD.set(words.nextToken());
              context.write(WORD, ONE);
            }
          }
        }

        public int run(String[] args) throws Exception {
          Job job = Job.getInstance(getConf(), "static key count");
          job.setJarByClass(StaticKeyCount.class);
          job.setMapperClass(Tokens.class);
          job.setCombinerClass(IntSumReducer.class);
          job.setReducerClass(IntSumReducer.class);
          job.setOutputKeyClass(Text.class);
          job.setOutputValueClass(IntWritable.class);
          FileInputFormat.addInputPath(job, new Path(args[0]));
          FileOutputFormat.setOutputPath(job, new Path(args[1]));
          if (job.waitForCompletion(false)) {
            return 0;
          }
          System.err.println("FAILURE: " + job.getStatus().getFailureInfo());
          return 7;
        }

        public static void main(String[] args) throws Exception {
          System.exit(ToolRunner.run(new StaticKeyCount(), args));
        }
      }
      """;

  @TempDir
  static Path jarsDir;
  private static Path jobJar;

  @TempDir
  Path workDir;

  @BeforeAll
  static void buildJar() throws Exception {
    Path classes = TestJars.compile(jarsDir, Map.of("sandboxtest.StaticKeyCount", STATIC_KEY_JOB));
    jobJar = new TestJars.Builder().mainClass("sandboxtest.StaticKeyCount").classes(classes, "")
        .writeTo(jarsDir.resolve("static-key-count.jar"));
  }

  private VivaceScript.Result run(Path input, Path output) throws Exception {
    return new VivaceScript(workDir).run("jar", jobJar.toString(), "-D",
        "hadoop.tmp.dir=" + workDir.resolve("hadoop-tmp"), "-D", "vivace.slots=2",
        input.toString(), output.toString());
  }

  @Tag("slow")
  @Test
  void aJobJarsStaticOutputKeyCountsRightWithTwoSlots() throws Exception {
    Path input = Files.createDirectories(workDir.resolve("in"));
    Map<String, Integer> expected = new TreeMap<>();
    java.util.Random random = new java.util.Random(3);
    for (int f = 0; f < 4; f++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 40_000; i++) {
        String line = "w" + "y".repeat(random.nextInt(9)) + random.nextInt(30) + " v" + random.nextInt(1000);
        lines.add(line);
        for (String w : line.split(" ")) {
          expected.merge(w, 1, Integer::sum);
        }
      }
      Files.write(input.resolve("f" + f), lines, StandardCharsets.UTF_8);
    }
    Path output = workDir.resolve("out");
    VivaceScript.Result result = run(input, output);
    assertEquals(0, result.exitCode(), result.describe());
    List<String> lines = new ArrayList<>();
    try (Stream<Path> parts = Files.list(output)) {
      for (Path part : parts.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList()) {
        lines.addAll(Files.readAllLines(part, StandardCharsets.UTF_8));
      }
    }
    List<String> expectedLines = new ArrayList<>();
    expected.forEach((w, n) -> expectedLines.add(w + "\t" + n));
    assertEquals(expectedLines, lines);
  }

  @Test
  void anExitInATaskFailsTheJobAndTheDriversExitIsTheLaunchers() throws Exception {
    Path input = Files.createDirectories(workDir.resolve("in"));
    Files.writeString(input.resolve("f"), "a b\nexit\nc\n");
    VivaceScript.Result result = run(input, workDir.resolve("out"));
    assertEquals(7, result.exitCode(), result.describe());
    assertTrue(result.stderr().matches("(?s).*FAILURE: .*task attempt_\\d+_\\d+_m_000000_\\d called System\\.exit\\(3\\).*"),
        result.describe());
  }
}
