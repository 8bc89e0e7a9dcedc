package io.vivace.conformance.libraries;

import io.vivace.conformance.Frameworks;
import io.vivace.conformance.OutputDirs;
import io.vivace.conformance.Runs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One program of a job jar run on Apache's LocalJobRunner and on the framework under test, each
 * with its own output folder and scratch space under {@code root}.
 */
public final class SideBySide {

  /** The two runs and their output folders. */
  public record Outcome(Runs.Result reference, Path referenceOut, Runs.Result underTest, Path underTestOut) {

    /**
     * Both succeeded, both committed, and their output files are byte-identical ({@link
     * OutputTrees}: subfolders included, SequenceFiles with their sync markers masked).
     */
    public Outcome assertSameOutput() throws IOException {
      return assertSameOutputOfJobs("");
    }

    /**
     * As {@link #assertSameOutput}, for a program whose jobs write the given subfolders of its
     * output folder, each committed.
     */
    public Outcome assertSameOutputOfJobs(String... subfolders) throws IOException {
      reference.assertSucceeded();
      underTest.assertSucceeded();
      for (String subfolder : subfolders) {
        OutputDirs.assertCommitted(referenceOut.resolve(subfolder), reference.program());
        OutputDirs.assertCommitted(underTestOut.resolve(subfolder), underTest.program());
      }
      OutputTrees.assertSame(referenceOut, underTestOut, underTest.program());
      return this;
    }
  }

  private SideBySide() {}

  /**
   * Runs {@code program} with {@code args} followed by the output folder, on the LocalJobRunner
   * first, then on the framework under test.
   */
  public static Outcome run(Path root, JobJar jar, String program, String... args) throws Exception {
    String reference = Frameworks.REFERENCE;
    String underTest = Frameworks.underTest();
    Path referenceOut = root.resolve("out-" + reference);
    Path underTestOut = root.resolve("out-" + underTest);
    Runs.Result r = JobJarRunner.run(reference, root.resolve("scratch-" + reference), jar, program,
        withOutput(args, referenceOut));
    Runs.Result u = JobJarRunner.run(underTest, root.resolve("scratch-" + underTest), jar, program,
        withOutput(args, underTestOut));
    return new Outcome(r, referenceOut, u, underTestOut);
  }

  private static String[] withOutput(String[] args, Path out) {
    List<String> all = new ArrayList<>(Arrays.asList(args));
    all.add(out.toString());
    return all.toArray(new String[0]);
  }
}
