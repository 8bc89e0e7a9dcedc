package io.vivace.realcluster;

import java.util.List;

/**
 * The two engines the real-cluster tests run a job on, on one cluster, and the flag of
 * {@code ./vivace} that chooses each: a Vivace session, MapReduce on YARN.
 */
enum Engine {
  SESSION("vivace-yarn", "VIVACE", List.of("-D", "vivace.master=yarn")),
  MAPREDUCE("mapreduce-yarn", "MAPREDUCE", List.of("-D", "mapreduce.framework.name=yarn"));

  /** The engine's name in the tests' output and the lab's. */
  final String label;
  /** The type of its applications on YARN. */
  final String applicationType;
  final List<String> flags;

  Engine(String label, String applicationType, List<String> flags) {
    this.label = label;
    this.applicationType = applicationType;
    this.flags = flags;
  }
}
