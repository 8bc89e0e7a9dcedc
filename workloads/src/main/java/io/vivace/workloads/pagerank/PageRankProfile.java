package io.vivace.workloads.pagerank;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

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
    try {
      return valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown profile '" + name + "' (known: "
          + Arrays.toString(values()).toLowerCase(Locale.ROOT) + ")");
    }
  }

  /** A generator's arguments with {@code -profile NAME} replaced by the profile's PAGES. */
  static String[] expand(String[] args) {
    List<String> rest = new ArrayList<>(List.of(args));
    int at = rest.indexOf("-profile");
    if (at < 0) {
      return args;
    }
    if (at + 1 >= rest.size()) {
      throw new IllegalArgumentException("-profile has no value");
    }
    PageRankProfile profile = of(rest.get(at + 1));
    rest.subList(at, at + 2).clear();
    rest.add(rest.size() - 1, Long.toString(profile.pages));
    return rest.toArray(new String[0]);
  }
}
