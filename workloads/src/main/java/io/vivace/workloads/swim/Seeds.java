package io.vivace.workloads.swim;

/**
 * Seeds derived from the replay's seed and the parts that name one random stream (job index,
 * task kind, task number), mixed with SplitMix64's finaliser so that neighbouring parts give
 * unrelated streams.
 */
final class Seeds {

  static final long PARTITION_START = 1;
  static final long MAP = 2;
  static final long REDUCE = 3;
  static final long POOL = 4;

  private Seeds() {}

  static long of(long seed, long... parts) {
    long h = mix(seed);
    for (long part : parts) {
      h = mix(h ^ mix(part + 0x9E3779B97F4A7C15L));
    }
    return h;
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
