package io.vivace.workloads.swim;

import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The SWIM traces of this project: {@code $VIVACE_SWIM_DATA}, else {@code ../shared/data/swim}
 * next to the repository (tests run in a module folder, one below the repository root).
 */
public final class SwimTraces {

  public static final String ENV = "VIVACE_SWIM_DATA";

  private SwimTraces() {}

  public static Path dir() {
    String override = System.getenv(ENV);
    if (override != null && !override.isBlank()) {
      return Paths.get(override);
    }
    Path module = Paths.get("").toAbsolutePath();
    return module.getParent().getParent().resolve("shared/data/swim");
  }

  public static Path fb2010() {
    return dir().resolve("FB-2010_samples_24_times_1hr_0.tsv");
  }
}
