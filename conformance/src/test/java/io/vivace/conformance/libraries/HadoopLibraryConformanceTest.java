package io.vivace.conformance.libraries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs built on Hadoop's own library classes with types of the job jar's own, run from their job
 * jar on Apache's LocalJobRunner and on Vivace: the same output, byte for byte. The joins and the
 * job's own serialization once gave a class two identities on Vivace (the job's loader and a
 * worker's) and failed; the others are kept so.
 */
class HadoopLibraryConformanceTest {

  private static final String PACKAGE = "io.vivace.jobs.library.";
  private static final JobJar JAR = JobJar.of("hadoop-library");

  @TempDir
  Path root;

  private Path customers() {
    return Inputs.textFiles(root.resolve("customers"), 3, 400, 1,
        (random, i) -> "c" + random.nextInt(300) + ",name" + i + ",city" + random.nextInt(20));
  }

  private Path orders() {
    return Inputs.textFiles(root.resolve("orders"), 4, 900, 2,
        (random, i) -> "c" + random.nextInt(350) + ",order" + i + "," + random.nextInt(10_000));
  }

  /** Lines of words from a vocabulary of words 1 to 12 letters long. */
  private Path words() {
    List<String> vocabulary = new java.util.ArrayList<>();
    Random random = new Random(5);
    for (int i = 0; i < 600; i++) {
      StringBuilder w = new StringBuilder();
      for (int n = 1 + random.nextInt(12); n > 0; n--) {
        w.append((char) ('a' + random.nextInt(26)));
      }
      vocabulary.add(w.toString());
    }
    return Inputs.textFiles(root.resolve("words"), 4, 1_500, 6, (r, i) -> {
      StringBuilder line = new StringBuilder();
      for (int n = 1 + r.nextInt(10); n > 0; n--) {
        line.append(vocabulary.get((int) Math.min(vocabulary.size() - 1, Math.abs(r.nextGaussian()) * 150)))
            .append(r.nextInt(4) == 0 ? ", " : " ");
      }
      return line.toString();
    });
  }

  private String path(Path p) {
    return p.toString();
  }

  @Test
  void reduceSideJoinWithMultipleInputs() throws Exception {
    SideBySide.run(root, JAR, PACKAGE + "ReduceSideJoin", path(customers()), path(orders())).assertSameOutput();
  }

  @Test
  void oldApiReduceSideJoinWithMultipleInputs() throws Exception {
    SideBySide.run(root, JAR, PACKAGE + "OldApiReduceSideJoin", path(customers()), path(orders())).assertSameOutput();
  }

  @Test
  void mapSideJoinWithCompositeInputFormat() throws Exception {
    SideBySide.run(root, JAR, PACKAGE + "MapSideJoin", path(customers()), path(orders()))
        .assertSameOutputOfJobs("customers", "orders", "joined");
  }

  @Test
  void aSerializationOfTheJobsOwnInIoSerializations() throws Exception {
    Path points = Inputs.textFiles(root.resolve("points"), 3, 2_000, 3,
        (random, i) -> (random.nextInt(40) - 20) + " " + (random.nextInt(40) - 20));
    SideBySide.run(root, JAR, PACKAGE + "CustomSerializationCount", path(points)).assertSameOutput();
  }

  @Test
  void chainMapperAndChainReducer() throws Exception {
    SideBySide.run(root, JAR, PACKAGE + "ChainedWordLengths", path(words())).assertSameOutput();
  }

  @Test
  void multipleOutputsWithNamedOutputsOfTheJobsOwnTypes() throws Exception {
    SideBySide.Outcome outcome = SideBySide.run(root, JAR, PACKAGE + "SplitByInitial", path(words())).assertSameOutput();
    assertTrue(OutputTrees.files(outcome.underTestOut()).stream().anyMatch(f -> f.startsWith("rare-r-")),
        "no named output 'rare' in " + OutputTrees.files(outcome.underTestOut()));
  }

  @Test
  void oldApiMultipleTextOutputFormatOfTheJobsOwn() throws Exception {
    SideBySide.run(root, JAR, PACKAGE + "OldApiFilesByInitial", path(words())).assertSameOutput();
  }

  @Test
  void totalOrderPartitionerWithASampledKeyOfTheJobsOwn() throws Exception {
    Path readings = Inputs.textFiles(root.resolve("readings"), 4, 1_000, 7,
        (random, i) -> "s" + random.nextInt(50) + " " + (random.nextInt(800) - 300));
    SideBySide.Outcome outcome = SideBySide.run(root, JAR, PACKAGE + "TotalOrderReadings", path(readings))
        .assertSameOutput();
    for (String part : List.of("part-r-00000", "part-r-00001", "part-r-00002")) {
      assertTrue(Files.size(outcome.underTestOut().resolve(part)) > 0, part + " is empty: the sample split nothing");
    }
  }

  @Test
  void combineFileInputFormatWithARecordReaderOfTheJobsOwn() throws Exception {
    Path small = Inputs.textFiles(root.resolve("small"), 40, 20, 8, (random, i) -> "line " + i + " " + random.nextInt());
    SideBySide.Outcome outcome = SideBySide.run(root, JAR, PACKAGE + "SmallFilesLineCount", path(small))
        .assertSameOutput();
    assertTrue(outcome.underTest().counters().findCounter("org.apache.hadoop.mapreduce.JobCounter",
        "TOTAL_LAUNCHED_MAPS").getValue() < 40, "CombineFileInputFormat did not combine the files");
  }

  @Test
  void aggregateWithADescriptorOfTheJobsOwn() throws Exception {
    SideBySide.run(root, JAR, PACKAGE + "AggregateWords", path(words())).assertSameOutput();
  }

  @Test
  void keyFieldBasedPartitionerAndComparator() throws Exception {
    Path cities = Inputs.textFiles(root.resolve("cities"), 3, 800, 9, (random, i) ->
        "country" + random.nextInt(7) + ".city" + i + "." + random.nextInt(5_000_000) + "\tv" + i);
    SideBySide.run(root, JAR, PACKAGE + "KeyFieldSort", path(cities)).assertSameOutput();
  }

  @Test
  void nLineInputFormat() throws Exception {
    Path lines = Inputs.textFiles(root.resolve("lines"), 2, 95, 10, (random, i) -> "line " + i);
    SideBySide.Outcome outcome = SideBySide.run(root, JAR, PACKAGE + "LinesPerMap", path(lines)).assertSameOutput();
    assertEquals(20, outcome.underTest().counters().findCounter("org.apache.hadoop.mapreduce.JobCounter",
        "TOTAL_LAUNCHED_MAPS").getValue(), "maps of ten lines each over 2 x 95 lines");
  }

  @Test
  void sequenceFilesAndMapFilesOfTheJobsOwnTypes() throws Exception {
    Path weather = Inputs.textFiles(root.resolve("weather"), 3, 1_000, 11, (random, i) ->
        "st" + random.nextInt(120) + " " + (1950 + random.nextInt(70)) + " " + (random.nextInt(600) - 200));
    SideBySide.run(root, JAR, PACKAGE + "StationFiles", path(weather)).assertSameOutputOfJobs("seq", "map", "lookup");
  }

  @Test
  void multithreadedMapperRunningAMapperOfTheJobsOwn() throws Exception {
    SideBySide.run(root, JAR, PACKAGE + "ThreadedWordCount", path(words())).assertSameOutput();
  }

  @Test
  void countersOfAnEnumOfTheJobsOwnReadByItsDriver() throws Exception {
    SideBySide.Outcome outcome = SideBySide.run(root, JAR, PACKAGE + "WordLengthCounters", path(words()))
        .assertSameOutput();
    List<String> reference = Files.readAllLines(Path.of(outcome.referenceOut() + ".counters"));
    assertTrue(reference.get(0).startsWith("SHORT=") && !reference.get(0).equals("SHORT=0"), "counters " + reference);
    assertEquals(reference, Files.readAllLines(Path.of(outcome.underTestOut() + ".counters")));
  }
}
