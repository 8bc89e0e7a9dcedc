package io.vivace.conformance.libraries;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.conformance.Frameworks;
import io.vivace.conformance.OutputDirs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Outputs of a binary format whose files are not byte-for-byte the same from one run to the next,
 * compared through a canonical text dump that a program of the job jar makes of each output folder.
 * The dump program runs from the job jar through {@link JobJarRunner}, so the format's classes
 * come from the job's jars, never from the suite's class path.
 */
public final class FormatDumps {

  private FormatDumps() {}

  /**
   * Both runs succeeded and committed, and {@code dumpProgram} of {@code jar}, given pairs of
   * output folder and dump file, gives the same dump of each output, byte for byte. Returns the
   * reference's dump.
   */
  public static List<String> assertSameDumps(SideBySide.Outcome outcome, JobJar jar, String dumpProgram, Path root)
      throws Exception {
    outcome.reference().assertSucceeded();
    outcome.underTest().assertSucceeded();
    OutputDirs.assertCommitted(outcome.referenceOut(), outcome.reference().program());
    OutputDirs.assertCommitted(outcome.underTestOut(), outcome.underTest().program());
    Path referenceDump = root.resolve("dump-of-" + outcome.referenceOut().getFileName() + ".txt");
    Path underTestDump = root.resolve("dump-of-" + outcome.underTestOut().getFileName() + ".txt");
    JobJarRunner.run(Frameworks.REFERENCE, root.resolve("scratch-dump"), jar, dumpProgram,
        outcome.referenceOut().toString(), referenceDump.toString(),
        outcome.underTestOut().toString(), underTestDump.toString()).assertSucceeded();
    OutputDirs.assertSameBytes(List.of(referenceDump), List.of(underTestDump),
        outcome.underTest().program() + ": dump of the output by " + dumpProgram);
    return Files.readAllLines(referenceDump, StandardCharsets.UTF_8);
  }

  /** The number on the dump's line {@code <prefix> N}, which must be positive. */
  public static long assertPositiveCount(List<String> dump, String prefix) {
    long n = dump.stream().filter(l -> l.startsWith(prefix + " ")).mapToLong(l -> Long.parseLong(l.substring(prefix.length() + 1).trim()))
        .findFirst().orElseThrow(() -> new AssertionError("no line '" + prefix + " N' in the dump"));
    assertTrue(n > 0, "the dump says '" + prefix + " " + n + "': the job wrote nothing to compare");
    return n;
  }

  /** The number of dump lines starting with {@code prefix}. */
  public static long countLines(List<String> dump, String prefix) {
    return dump.stream().filter(l -> l.startsWith(prefix)).count();
  }
}
