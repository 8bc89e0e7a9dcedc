package io.vivace.driver.workloads;

import io.vivace.driver.Param;

/** Parameters several workloads take, declared once. */
final class SharedParams {

  private SharedParams() {}

  static Param maps() {
    return Param.integer("maps", 2, 1, "", "map tasks (of the generator, for data-reading workloads)");
  }

  /** At least one: without a reduce the output of these jobs would not be sorted. */
  static Param reduces() {
    return Param.integer("reduces", 1, 1, "", "reduce tasks");
  }

  static Param seed() {
    return Param.integer("seed", 0, 0, "", "seed of the generator");
  }

  /** {@code bytes} of generated input, 16 MiB by default. */
  static Param bytes(String what) {
    return Param.size("bytes", 16L << 20, 1, "bytes of " + what + " to generate");
  }
}
