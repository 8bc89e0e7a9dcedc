package io.vivace.task;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;

/**
 * A local folder of this test JVM's own for Hadoop's reduce contexts: their mark and reset spill to
 * a file whose name depends only on the attempt, under {@code mapreduce.cluster.local.dir}, which
 * by default is the same folder for every JVM (so two test JVMs at once collided on it). Under the
 * module's target/, so that `mvn clean` takes it.
 */
final class PrivateLocalDir {

  private static final String DIR = create();

  private PrivateLocalDir() {
  }

  static Configuration conf() {
    Configuration conf = new Configuration();
    conf.set(MRConfig.LOCAL_DIR, DIR);
    return conf;
  }

  private static String create() {
    try {
      Path target = Files.createDirectories(Path.of("target"));
      return Files.createTempDirectory(target, "hadoop-local-").toAbsolutePath().toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
