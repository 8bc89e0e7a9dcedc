package io.vivace.conformance.libraries;

import io.vivace.conformance.Frameworks;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parquet MapReduce (parquet-hadoop and parquet-avro 1.15.2) from its job jar and {@code -libjars},
 * on Apache's LocalJobRunner and on Vivace: the example Group API's input and output formats, a
 * read projection, parquet-avro's formats with generic records and nested arrays, Snappy and gzip
 * pages, a map-only job and jobs with a combiner and three reduces.
 *
 * <p>The outputs are compared through {@code ParquetDump} (in the job jar: footers, column chunk
 * metadata, the summary files' footers and every record), not byte for byte. Parquet's footer
 * lists each column chunk's encodings in the iteration order of a {@code HashSet} of
 * {@code Encoding} constants (parquet-hadoop's {@code ColumnChunkPageWriteStore}), an order set by
 * the constants' identity hash codes, which can differ between two JVMs and between two class
 * loaders of Parquet's classes. Vivace's workers each load a job's {@code -libjars} with a loader
 * of their own, and its files differed from the LocalJobRunner's at the footer's first encodings
 * list (seen on this machine). The dump lists encodings in their enum's order.
 */
@Tag("slow")
class ParquetConformanceTest {

  private static final String PACKAGE = "io.vivace.jobs.parquet.";
  private static final JobJar JAR = JobJar.of("parquet");

  @TempDir
  Path root;

  @TempDir
  static Path inputs;

  /**
   * Four Parquet files of 1,500 sales each (two gzip-compressed), written once for the class by the
   * job jar's generator.
   */
  private static Path sales;

  @BeforeAll
  static void generateSales() throws Exception {
    sales = inputs.resolve("sales");
    JobJarRunner.run(Frameworks.REFERENCE, inputs.resolve("scratch-generate"), JAR, PACKAGE + "GenerateSales",
        sales.toString(), "4", "1500", "29").assertSucceeded();
  }

  private void assertSameParquet(SideBySide.Outcome outcome) throws Exception {
    List<String> dump = FormatDumps.assertSameDumps(outcome, JAR, PACKAGE + "ParquetDump", root);
    FormatDumps.assertPositiveCount(dump, "total records");
    RunShapes.assertNonTrivial(outcome, 3);
  }

  @Test
  void csvToParquetWithTheGroupApiMapOnly() throws Exception {
    Path csv = Inputs.textFiles(root.resolve("csv"), 4, 1500, 31, (random, i) ->
        "store-" + random.nextInt(9) + ",product-" + random.nextInt(40) + "," + (1 + random.nextInt(30)) + ","
            + (1 + random.nextInt(12)) + "," + (50 + random.nextInt(20_000)) + (random.nextInt(4) == 0 ? ",C" + random.nextInt(5) : ""));
    assertSameParquet(SideBySide.run(root, JAR, PACKAGE + "SalesToParquet", csv.toString()));
  }

  @Test
  void groupApiInputWithProjectionAndGroupOutput() throws Exception {
    assertSameParquet(SideBySide.run(root, JAR, PACKAGE + "StoreRevenue", sales.toString()));
  }

  @Test
  void parquetAvroGenericRecordsInAndOut() throws Exception {
    assertSameParquet(SideBySide.run(root, JAR, PACKAGE + "ProductUnitsByDay", sales.toString()));
  }
}
