package io.vivace.workloads.pagerank;

import io.vivace.workloads.gen.GeneratorJob;

/** HiBench's PageRank scale profiles (its {@code pagerank.conf}): pages and iterations. */
public enum PageRankProfile {
  TINY(50, 3),
  SMALL(5_000, 3),
  LARGE(500_000, 3),
  HUGE(5_000_000, 3);

  public final long pages;
  public final int iterations;

  PageRankProfile(long pages, int iterations) {
    this.pages = pages;
    this.iterations = iterations;
  }

  public static PageRankProfile of(String name) {
    return GeneratorJob.profile(PageRankProfile.class, name);
  }

  /** A generator's arguments with {@code -profile NAME} replaced by the profile's PAGES. */
  static String[] expand(String[] args) {
    GeneratorJob.Profiled profiled = GeneratorJob.Profiled.of(args);
    return profiled.name() == null ? args : profiled.withAmount(of(profiled.name()).pages);
  }
}
