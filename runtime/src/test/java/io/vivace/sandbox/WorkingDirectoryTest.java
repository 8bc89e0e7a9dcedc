package io.vivace.sandbox;

import static io.vivace.testing.JobFixtures.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.testing.JobFixtures;
import io.vivace.testing.JobFixtures.FinishedJob;
import java.io.BufferedReader;
import java.io.File;
import java.io.FileReader;
import java.io.FileWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each task attempt's working directory, as a YARN container's: the job's {@code #name} cache files
 * linked into it, and relative paths of {@code java.io}, {@code java.nio}, Hadoop's local file system
 * and child processes all resolving there, apart from every other attempt's.
 */
class WorkingDirectoryTest {

  @TempDir
  Path root;

  /** Reports, one line per way, what it finds under the name "stop" relative to its working directory. */
  public static class RelativePathMapper extends Mapper<LongWritable, Text, Text, Text> {
    private void emit(Context context, String way, String found) throws IOException, InterruptedException {
      context.write(new Text(way), new Text(found));
    }

    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      try (BufferedReader in = new BufferedReader(new FileReader("stop"))) {
        emit(context, "FileReader", in.readLine());
      }
      emit(context, "Files.readAllLines", Files.readAllLines(Path.of("stop")).get(0));
      emit(context, "File.exists", Boolean.toString(new File("stop").exists() && !new File("missing").exists()));
      emit(context, "File stays relative", new File("stop").getPath() + " " + new File("stop").isAbsolute());
      String dir = System.getProperty("user.dir");
      emit(context, "user.dir is the attempt's",
          Boolean.toString(dir.endsWith(context.getTaskAttemptID().toString())
              && new File("stop").getAbsolutePath().equals(dir + "/stop")
              && Path.of("stop").toAbsolutePath().toString().equals(dir + "/stop")));
      emit(context, "ProcessBuilder", run(new ProcessBuilder("sh", "-c", "cat stop; echo \" $PWD\"").start())
          .replace(dir, "<user.dir>"));
      emit(context, "Runtime.exec", run(Runtime.getRuntime().exec(new String[] {"cat", "stop"})));
      try (Writer out = new FileWriter("side-file")) {
        out.write(context.getTaskAttemptID().toString());
      }
      FileSystem local = FileSystem.getLocal(context.getConfiguration());
      try (BufferedReader in = new BufferedReader(new InputStreamReader(
          local.open(new org.apache.hadoop.fs.Path("side-file")), StandardCharsets.UTF_8))) {
        emit(context, "Hadoop's local file system sees the same side file",
            Boolean.toString(in.readLine().equals(context.getTaskAttemptID().toString())));
      }
      // the other map wrote its own side file meanwhile: this one is still this attempt's
      CountDownLatch both = (CountDownLatch) System.getProperties()
          .computeIfAbsent("vivace.test.cwd." + context.getJobID(), k -> new CountDownLatch(2));
      both.countDown();
      if (!both.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the other map never ran beside this one");
      }
      try (BufferedReader in = new BufferedReader(new FileReader("side-file"))) {
        emit(context, "side file after the other map wrote its own",
            Boolean.toString(in.readLine().equals(context.getTaskAttemptID().toString())));
      }
    }

    private static String run(Process process) throws IOException, InterruptedException {
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      return process.waitFor() + ": " + out;
    }
  }

  @Test
  void relativePathsAndChildProcessesResolveInTheAttemptsWorkingDirectory() throws Exception {
    Path stop = JobFixtures.writeInputText(root.resolve("cache/stopwords.txt"), "the\nand\n");
    Path input = root.resolve("input");
    JobFixtures.writeInputLines(input.resolve("a"), List.of("one"));
    JobFixtures.writeInputLines(input.resolve("b"), List.of("two"));
    FinishedJob job = JobFixtures.runNewApiJob(VIVACE, root, input, (conf, in, out) -> {
      Job j = Job.getInstance(conf, "relative paths");
      j.setMapperClass(RelativePathMapper.class);
      j.setNumReduceTasks(0);
      j.setOutputKeyClass(Text.class);
      j.setOutputValueClass(Text.class);
      j.addCacheFile(new URI(JobFixtures.hadoopPath(stop).toUri() + "#stop"));
      FileInputFormat.addInputPath(j, in);
      FileOutputFormat.setOutputPath(j, out);
      return j;
    });
    assertTrue(job.succeeded(), job.job().getStatus().getFailureInfo());
    List<String> perMap = List.of(
        "FileReader\tthe",
        "Files.readAllLines\tthe",
        "File.exists\ttrue",
        "File stays relative\tstop false",
        "user.dir is the attempt's\ttrue",
        "ProcessBuilder\t0: the\nand\n <user.dir>".replace("\n", "\n"),
        "Runtime.exec\t0: the\nand",
        "Hadoop's local file system sees the same side file\ttrue",
        "side file after the other map wrote its own\ttrue");
    List<String> expected = new java.util.ArrayList<>();
    for (String line : perMap) {
      expected.addAll(List.of(line.split("\n")));
    }
    for (String part : job.parts().keySet()) {
      assertEquals(expected, job.parts().get(part), part);
    }
    assertEquals(2, job.parts().size());
    assertEquals("the\nand\n", Files.readString(stop), "the cached original is untouched");
  }
}
