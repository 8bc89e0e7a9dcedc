package io.vivace.conformance.libraries;

import static io.vivace.conformance.libraries.Pipeline.args;
import static io.vivace.conformance.libraries.Pipeline.step;

import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache Pig 0.17.0 in mapreduce mode, embedded through {@code PigServer} by a Tool of the job
 * jar, on Apache's LocalJobRunner and on Vivace: the same output, byte for byte. Pig builds its
 * own job jars (its classes and the script's) and plans several MapReduce jobs per script.
 */
@Tag("slow")
class PigConformanceTest {

  private static final JobJar JAR = JobJar.of("pig");

  @TempDir
  Path root;

  /** Load, filter, join, group with algebraic aggregates (combiners), order (a sampling job), store three outputs. */
  @Test
  void loadFilterJoinGroupOrderStore() throws Exception {
    Path users = Inputs.textFiles(root.resolve("users"), 2, 500, 21,
        (random, i) -> i + ",name" + i + ",city" + random.nextInt(25) + "," + (10 + random.nextInt(60)));
    Path orders = Inputs.textFiles(root.resolve("orders"), 3, 2_000, 22,
        (random, i) -> i + "," + random.nextInt(1_100) + "," + random.nextInt(100_000) + ",2026-11-" + (10 + random.nextInt(20)));
    Pipeline.run(root, JAR, step("io.vivace.jobs.pig.PigScript", side -> args(
            "/io/vivace/jobs/pig/orders.pig", "users=" + users, "orders=" + orders, "out=" + side.resolve("out"))))
        .assertSameTree("out/totals")
        .assertSameTree("out/large")
        .assertSameTree("out/days");
  }
}
