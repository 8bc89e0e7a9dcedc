package io.vivace.workloads.swim;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Where this project keeps the public SWIM traces, for its tests: {@code $VIVACE_SWIM_DATA}, else
 * {@code ../shared/data/swim} beside the repository, whose root is the nearest folder above the
 * working directory that holds the {@code vivace} launcher.
 */
public final class SwimTraces {

  public static final String ENV = "VIVACE_SWIM_DATA";

  private SwimTraces() {}

  public static Path dir() {
    String override = System.getenv(ENV);
    if (override != null && !override.isBlank()) {
      return Paths.get(override);
    }
    Path dir = Paths.get(System.getProperty("user.dir")).toAbsolutePath();
    while (dir.getParent() != null && !Files.isRegularFile(dir.resolve("vivace"))) {
      dir = dir.getParent();
    }
    return dir.resolveSibling("shared").resolve("data/swim");
  }

  public static Path fb2010() {
    return dir().resolve("FB-2010_samples_24_times_1hr_0.tsv");
  }
}
