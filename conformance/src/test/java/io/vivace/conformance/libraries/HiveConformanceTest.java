package io.vivace.conformance.libraries;

import static io.vivace.conformance.libraries.Pipeline.args;
import static io.vivace.conformance.libraries.Pipeline.step;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import java.util.function.BiFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache Hive's MapReduce engine running HiBench's SQL workloads (scan, aggregation, join: its
 * tables of {@code uservisits} and {@code rankings} as CSV in SequenceFiles, its queries) through
 * a Tool that runs a script as {@code hive -f} does, with an embedded metastore, on Apache's
 * LocalJobRunner and on Vivace.
 */
@Tag("slow")
class HiveConformanceTest {

  private static final JobJar JAR = JobJar.of("hive");
  private static final String SCRIPT = "io.vivace.jobs.hive.HiveScript";

  @TempDir
  Path root;

  private Path input;

  @BeforeEach
  void tables() throws IOException {
    input = root.resolve("input");
    int pages = 600;
    sequenceFile(input.resolve("rankings/part-00000"), pages, 51,
        (random, i) -> "url" + i + "," + random.nextInt(100) + "," + (1 + random.nextInt(60)));
    for (int part = 0; part < 2; part++) {
      sequenceFile(input.resolve("uservisits/part-0000" + part), 3_000, 52 + part,
          (random, i) -> "10.0." + random.nextInt(40) + "." + random.nextInt(8) + ",url" + random.nextInt(pages)
              + "," + (1998 + random.nextInt(3)) + "-" + String.format("%02d-%02d", 1 + random.nextInt(12), 1 + random.nextInt(28))
              + "," + String.format(Locale.ROOT, "%.6f", random.nextDouble() * 1000)
              + ",agent" + random.nextInt(9) + ",C" + random.nextInt(30) + ",L" + random.nextInt(12)
              + ",word" + random.nextInt(500) + "," + random.nextInt(100));
    }
  }

  private static void sequenceFile(Path file, int rows, long seed, BiFunction<Random, Integer, String> row) throws IOException {
    Files.createDirectories(file.getParent());
    Random random = new Random(seed);
    Configuration conf = new Configuration();
    try (SequenceFile.Writer writer = SequenceFile.createWriter(conf,
        SequenceFile.Writer.file(new org.apache.hadoop.fs.Path(file.toUri())),
        SequenceFile.Writer.keyClass(LongWritable.class), SequenceFile.Writer.valueClass(Text.class))) {
      for (int i = 0; i < rows; i++) {
        writer.append(new LongWritable(i), new Text(row.apply(random, i)));
      }
    }
  }

  /** The three queries in one Hive session per side: starting Hive and its metastore is most of the time. */
  @Test
  void scanAggregationAndJoin() throws Exception {
    String scripts = "/io/vivace/jobs/hive/scan.sql,/io/vivace/jobs/hive/aggregation.sql,/io/vivace/jobs/hive/join.sql";
    Pipeline.Outcome outcome = Pipeline.run(root, JAR, step(SCRIPT, side -> args(
        scripts, side.resolve("hive"), "input=" + input.toUri(), "output=" + side.resolve("out").toUri())));
    outcome.assertSameTree("out/uservisits_scan");
    outcome.assertSameTree("out/uservisits_aggre");
    outcome.assertSameTree("out/rankings_uservisits_join");
  }
}
