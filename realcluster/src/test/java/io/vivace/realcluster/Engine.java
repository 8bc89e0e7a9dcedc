package io.vivace.realcluster;

import java.util.ArrayList;
import java.util.List;

/**
 * The two engines the real-cluster tests run a job on, on one cluster, and the flag of
 * {@code ./vivace} that chooses each: a Vivace session, MapReduce on YARN. Their flags also give
 * the engine's containers the JIT options of the tier's test JVMs ({@link ClusterClient#TEST_JIT}):
 * they live for seconds to minutes, and what the tests compare of them does not depend on the JIT.
 */
enum Engine {
  SESSION("vivace-yarn", "VIVACE", List.of("-D", "vivace.master=yarn"), List.of("vivace.session.java.opts=")),
  MAPREDUCE("mapreduce-yarn", "MAPREDUCE", List.of("-D", "mapreduce.framework.name=yarn"),
      List.of("mapreduce.map.java.opts=", "mapreduce.reduce.java.opts=", "yarn.app.mapreduce.am.command-opts=-Xmx"
          + ClusterConfiguration.heapMb(ClusterConfiguration.AM_MEMORY_MB) + "m "));

  /** The engine's name in the tests' output and the lab's. */
  final String label;
  /** The type of its applications on YARN. */
  final String applicationType;
  final List<String> flags;

  /** {@code containerOptions}: each key of the engine's container JVM options, with what precedes the JIT's. */
  Engine(String label, String applicationType, List<String> choice, List<String> containerOptions) {
    this.label = label;
    this.applicationType = applicationType;
    List<String> flags = new ArrayList<>(choice);
    if (!ClusterClient.TEST_JIT.isEmpty()) {
      containerOptions.forEach(option -> flags.addAll(List.of("-D", option + ClusterClient.TEST_JIT)));
    }
    this.flags = List.copyOf(flags);
  }
}
