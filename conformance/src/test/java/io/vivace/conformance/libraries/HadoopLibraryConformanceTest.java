package io.vivace.conformance.libraries;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs built on Hadoop's own library classes with types of the job jar's own, run from their job
 * jar on Apache's LocalJobRunner and on Vivace: the same output, byte for byte. Each of these once
 * gave a class two identities on Vivace (the job's loader and a worker's), and failed.
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

  @Test
  void reduceSideJoinWithMultipleInputs() throws Exception {
    SideBySide.run(root, JAR, PACKAGE + "ReduceSideJoin", customers().toString(), orders().toString())
        .assertSameOutput();
  }

  @Test
  void oldApiReduceSideJoinWithMultipleInputs() throws Exception {
    SideBySide.run(root, JAR, PACKAGE + "OldApiReduceSideJoin", customers().toString(), orders().toString())
        .assertSameOutput();
  }

  @Test
  void aSerializationOfTheJobsOwnInIoSerializations() throws Exception {
    Path points = Inputs.textFiles(root.resolve("points"), 3, 2_000, 3,
        (random, i) -> (random.nextInt(40) - 20) + " " + (random.nextInt(40) - 20));
    SideBySide.run(root, JAR, PACKAGE + "CustomSerializationCount", points.toString()).assertSameOutput();
  }
}
