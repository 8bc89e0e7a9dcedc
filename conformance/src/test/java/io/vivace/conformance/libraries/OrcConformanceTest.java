package io.vivace.conformance.libraries;

import io.vivace.conformance.Frameworks;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ORC's MapReduce formats (orc-mapreduce 2.2.1) from their job jar and {@code -libjars}, on
 * Apache's LocalJobRunner and on Vivace: {@code OrcStruct} rows (with list and map columns) read
 * with {@code OrcInputFormat} and written with {@code OrcOutputFormat} in both APIs, and
 * {@code OrcKey}/{@code OrcValue} structs through the shuffle and a combiner. ORC writes the same
 * bytes for the same rows (its footer holds versions and statistics, no time or random value), so
 * the outputs are compared byte for byte; {@code OrcDump} (in the job jar) also reads every file
 * back, so an unreadable or empty output fails too.
 */
@Tag("slow")
class OrcConformanceTest {

  private static final String PACKAGE = "io.vivace.jobs.orc.";
  private static final JobJar JAR = JobJar.of("orc");

  @TempDir
  Path root;

  @TempDir
  static Path inputs;

  /**
   * Four ORC files of 1,500 trips each (two zlib-compressed), written once for the class by the
   * job jar's generator.
   */
  private static Path trips;

  @BeforeAll
  static void generateTrips() throws Exception {
    trips = inputs.resolve("trips");
    JobJarRunner.run(Frameworks.REFERENCE, inputs.resolve("scratch-generate"), JAR, PACKAGE + "GenerateTrips",
        trips.toString(), "4", "1500", "37").assertSucceeded();
  }

  private void assertSameOrc(SideBySide.Outcome outcome) throws Exception {
    outcome.assertSameOutput();
    List<String> dump = FormatDumps.assertSameDumps(outcome, JAR, PACKAGE + "OrcDump", root);
    FormatDumps.assertPositiveCount(dump, "total rows");
    RunShapes.assertNonTrivial(outcome, 3);
  }

  @Test
  void csvToOrcInTheOldApiMapOnly() throws Exception {
    String[] tags = {"airport", "night", "card", "cash"};
    Path csv = Inputs.textFiles(root.resolve("csv"), 4, 1500, 41, (random, i) ->
        "vendor" + random.nextInt(5) + "," + random.nextInt(30) + "," + (1 + random.nextInt(28)) + "," + (1 + random.nextInt(4))
            + "," + (300 + random.nextInt(6000)) + "," + (random.nextInt(4) == 0 ? "" : String.valueOf(random.nextInt(900)))
            + "," + (random.nextBoolean() ? "" : tags[random.nextInt(4)] + (random.nextBoolean() ? ";" + tags[random.nextInt(4)] : "")));
    assertSameOrc(SideBySide.run(root, JAR, PACKAGE + "TripsToOrc", csv.toString()));
  }

  @Test
  void orcKeyAndOrcValueThroughTheShuffle() throws Exception {
    assertSameOrc(SideBySide.run(root, JAR, PACKAGE + "ZoneFares", trips.toString()));
  }

  @Test
  void oldApiInputWithListsAndMapColumnOutput() throws Exception {
    assertSameOrc(SideBySide.run(root, JAR, PACKAGE + "VendorTagCounts", trips.toString()));
  }
}
