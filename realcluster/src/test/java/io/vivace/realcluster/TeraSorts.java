package io.vivace.realcluster;

import static io.vivace.realcluster.ClusterClient.assertSameParts;
import static io.vivace.realcluster.ClusterClient.counter;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The fault tests' TeraSorts (2 reduces) of one input: each run on an engine, its output fetched as
 * soon as the job ends (TeraSort writes it with one replica, which a later fault could take) and
 * compared byte for byte with the reference, an undisturbed run's, in {@code work/reference}.
 */
final class TeraSorts {

  private static final String[] COUNTERS = {"Launched map tasks", "Killed map tasks", "Failed map tasks",
      "Launched reduce tasks", "Killed reduce tasks", "Failed reduce tasks", "Data-local map tasks"};

  private final ClusterClient client;
  private final Path work;
  private final String input;

  TeraSorts(ClusterClient client, Path work, String input) {
    this.client = client;
    this.work = work;
    this.input = input;
  }

  /** TeraSort of the input into {@code out} on the engine, with {@code options} ({@code -D k=v} pairs). */
  Run.Result run(Engine engine, String out, List<String> options) throws Exception {
    List<String> command = new ArrayList<>(List.of("examples", "terasort"));
    command.addAll(engine.flags);
    command.addAll(options);
    command.addAll(List.of("-D", "mapreduce.job.reduces=2", input, out));
    return client.vivace(command.toArray(new String[0]));
  }

  /** Fetches the reference run's output from {@code out}. */
  void keepAsReference(String out) throws Exception {
    client.fs("-get", out, work.resolve("reference").toString());
  }

  /** Fetches {@code out} and compares it with the reference, part file by part file. */
  void assertSameAsReference(String out) throws Exception {
    Path local = work.resolve(out.substring(out.lastIndexOf('/') + 1));
    client.fs("-get", out, local.toString());
    assertSameParts(work.resolve("reference"), local);
  }

  /** Prints the job's attempt counters, as its client printed them. */
  static void report(String what, Run.Result job) {
    StringBuilder line = new StringBuilder(what + ":");
    for (String counter : COUNTERS) {
      line.append(' ').append(counter).append('=').append(counter(job, counter));
    }
    System.out.println(line);
  }
}
