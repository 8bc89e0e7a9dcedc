package io.vivace.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

import io.vivace.driver.JobRecorder;
import io.vivace.driver.RecordedJob;

/** Runs Apache's programs in-process on a given framework. */
public final class Runs {

  private Runs() {}

  /** The outcome of one program run. */
  public record Result(String framework, String program, int exitCode, List<RecordedJob> jobs,
      long millis) {

    /** Fails unless the program returned 0. */
    public Result assertSucceeded() {
      assertEquals(0, exitCode,
          program + " on " + framework + " returned exit code " + exitCode
              + " (see target/surefire-reports/*-output.txt for its log)");
      return this;
    }

    /** The single job the program submitted. */
    public RecordedJob onlyJob() {
      if (jobs.size() != 1) {
        fail(program + " on " + framework + " was expected to submit exactly one job, submitted "
            + jobs + (jobs.isEmpty() ? " (none recorded: did a provider other than"
                + " the driver's JobRecorder answer first?)" : ""));
      }
      return jobs.get(0);
    }

    /** Counters of the single job the program submitted. */
    public Counters counters() throws Exception {
      return onlyJob().counters();
    }
  }

  /**
   * {@code ToolRunner.run(conf, tool, args)} with a fresh configuration for {@code framework};
   * Hadoop's generic options ({@code -D key=value}) in {@code args} are applied as on the command
   * line. {@code scratch} holds Hadoop's own files (staging, local dirs).
   */
  public static Result tool(String framework, Path scratch, Tool tool, String... args)
      throws Exception {
    Configuration conf = Frameworks.conf(framework, scratch);
    JobRecorder.drain();
    String program = tool.getClass().getSimpleName() + " " + String.join(" ", Arrays.asList(args));
    long start = System.nanoTime();
    int rc = ToolRunner.run(conf, tool, args);
    long millis = (System.nanoTime() - start) / 1_000_000;
    List<RecordedJob> jobs = JobRecorder.drain();
    System.out.printf("[conformance] %s on %s: exit %d in %d ms, jobs %s%n", program, framework, rc,
        millis, jobs);
    return new Result(framework, program, rc, jobs, millis);
  }

  /** Generic options and program options, then the input and the output path. */
  public static String[] args(String[] options, Path input, Path out) {
    List<String> a = new ArrayList<>(Arrays.asList(options));
    a.add(input.toString());
    a.add(out.toString());
    return a.toArray(new String[0]);
  }
}
