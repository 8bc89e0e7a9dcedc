package io.vivace.conformance.libraries;

import static io.vivace.conformance.libraries.Pipeline.args;
import static io.vivace.conformance.libraries.Pipeline.step;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache Crunch 0.15.0's {@code MRPipeline} (crunch-core with -libjars, the pipeline's Tool in the
 * job jar) on Apache's LocalJobRunner and on Vivace.
 */
@Tag("slow")
class CrunchConformanceTest {

  private static final JobJar JAR = JobJar.of("crunch");

  @TempDir
  Path root;

  @Test
  void joinCogroupAndGroupBy() throws Exception {
    Path customers = Inputs.textFiles(root.resolve("customers"), 2, 400, 31,
        (random, i) -> "c" + random.nextInt(300) + ",name" + i + ",city" + random.nextInt(15));
    Path orders = Inputs.textFiles(root.resolve("orders"), 3, 1_000, 32,
        (random, i) -> "c" + random.nextInt(350) + ",order" + i + "," + random.nextInt(100_000));
    Pipeline.run(root, JAR, step("io.vivace.jobs.crunch.CrunchOrders", side -> args(customers, orders, side.resolve("out"))))
        .assertSameTree("out/cities")
        .assertSameLines("out/joined", Pipeline.sortedWithinKeys(line -> line.substring(0, line.indexOf(','))))
        .assertSameLines("out/cogrouped", Pipeline.eachLine(CrunchConformanceTest::listsSorted));
  }

  /**
   * A co-grouped line, {@code [key,[[a, b],[x, y, z]]]}, with each list sorted: Crunch's co-group
   * lists each side's values in the order the reduce received them.
   */
  static String listsSorted(String line) {
    int open = line.indexOf(",[[");
    String lists = line.substring(open + 3, line.length() - 3);
    return line.substring(0, open + 3) + Arrays.stream(lists.split("\\],\\[", -1))
        .map(list -> Arrays.stream(list.split(", ")).sorted().collect(Collectors.joining(", ")))
        .collect(Collectors.joining("],[")) + "]]]";
  }
}
