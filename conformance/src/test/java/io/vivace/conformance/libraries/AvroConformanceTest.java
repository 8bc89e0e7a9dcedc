package io.vivace.conformance.libraries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.conformance.Frameworks;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Avro MapReduce ({@code avro-mapred} 1.11.4, the Avro of Hadoop 3.4.2) from its job jar and
 * {@code -libjars}, on Apache's LocalJobRunner and on Vivace: specific records generated at build
 * time, generic records and reflect records, as input, map output and output, with combiners,
 * several reduces and {@code AvroMultipleOutputs}, in the new API ({@code org.apache.avro.mapreduce})
 * and the old ({@code org.apache.avro.mapred}).
 *
 * <p>The outputs are compared through {@code AvroDump} (in the job jar), not byte for byte: every
 * Avro container file carries a 16-byte sync marker that {@code DataFileWriter} draws at random
 * (avro-mapred's output formats give it no fixed one), so two runs writing the same records never
 * write the same bytes. The dump holds everything else: file names, schemas, codecs and every
 * record in file order.
 */
@Tag("slow")
class AvroConformanceTest {

  private static final String PACKAGE = "io.vivace.jobs.avro.";
  private static final JobJar JAR = JobJar.of("avro");

  @TempDir
  Path root;

  @TempDir
  static Path inputs;

  /**
   * Four Avro files of 1,500 {@code User} records each, written once for the class by the
   * job jar's generator.
   */
  private static Path users;

  @BeforeAll
  static void generateUsers() throws Exception {
    users = inputs.resolve("users");
    JobJarRunner.run(Frameworks.REFERENCE, inputs.resolve("scratch-generate"), JAR, PACKAGE + "GenerateUsers",
        users.toString(), "4", "1500", "23").assertSucceeded();
  }

  private List<String> assertSameRecords(SideBySide.Outcome outcome) throws Exception {
    List<String> dump = FormatDumps.assertSameDumps(outcome, JAR, PACKAGE + "AvroDump", root);
    FormatDumps.assertPositiveCount(dump, "total records");
    RunShapes.assertNonTrivial(outcome, 3);
    return dump;
  }

  @Test
  void colorCountOfSpecificRecordsAsInput() throws Exception {
    List<String> dump = assertSameRecords(SideBySide.run(root, JAR, PACKAGE + "ColorCount", users.toString()));
    assertEquals(3, FormatDumps.countLines(dump, "file part-r-"), "one file per reduce: " + dump);
  }

  @Test
  void colorCountInTheOldApiWithAvroThroughTheShuffle() throws Exception {
    List<String> dump = assertSameRecords(SideBySide.run(root, JAR, PACKAGE + "MapredColorCount", users.toString()));
    assertEquals(3, FormatDumps.countLines(dump, "file part-"), "one file per reduce: " + dump);
  }

  /**
   * The failing case of issue 23: a specific record of the job jar as map output key and value,
   * Avro's serialisation from {@code -libjars}; every map attempt once failed with "keySerializer is null".
   */
  @Test
  void specificRecordsAsMapOutputKeyAndValue() throws Exception {
    Path readings = Inputs.textFiles(root.resolve("readings"), 4, 1500, 7, (random, i) ->
        "station" + random.nextInt(12) + "," + (2020 + random.nextInt(3)) + "-"
            + String.format("%02d-%02d", 1 + random.nextInt(12), 1 + random.nextInt(28)) + ","
            + (random.nextInt(700) - 250));
    List<String> dump = assertSameRecords(SideBySide.run(root, JAR, PACKAGE + "StationMonthlyStats", readings.toString()));
    assertTrue(FormatDumps.countLines(dump, "{\"station\": ") > 100, "summaries of station-months expected: " + dump.size());
  }

  @Test
  void genericRecordsWithAvroMultipleOutputs() throws Exception {
    List<String> dump = assertSameRecords(SideBySide.run(root, JAR, PACKAGE + "UsersByRegionAndDecade", users.toString()));
    assertTrue(FormatDumps.countLines(dump, "file by-region/") >= 4, "a file per region and reduce expected: " + dump);
  }

  @Test
  void reflectRecordsOfPlainJavaClasses() throws Exception {
    Path visits = Inputs.textFiles(root.resolve("visits"), 4, 1500, 11, (random, i) ->
        random.nextInt(7) + ",user" + random.nextInt(200) + ",/page/" + random.nextInt(25) + "," + random.nextInt(60_000));
    assertSameRecords(SideBySide.run(root, JAR, PACKAGE + "PageVisitStats", visits.toString()));
  }
}
