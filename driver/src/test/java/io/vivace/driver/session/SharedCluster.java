package io.vivace.driver.session;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The one three-node YARN + HDFS mini-cluster ({@link ClusterFixture}) of the driver module's test
 * run, started by the first class that needs it ({@code @ExtendWith(SharedCluster.class)}) and
 * stopped when the run ends (JUnit's root store closes it). Starting one takes the better part of
 * a minute; the session test classes used to start one each.
 *
 * <p>What the classes share, they leave as they found it: each uses a session of its own name
 * ({@code vivace.session.name}) and stops it when it is done, and its own folders on HDFS.
 */
public final class SharedCluster implements BeforeAllCallback {

  private static volatile ClusterFixture cluster;

  /** Closes the cluster and removes its folder when the test run ends. */
  private static final class Running implements ExtensionContext.Store.CloseableResource {
    final ClusterFixture fixture;
    final File dir;

    Running(ClusterFixture fixture, File dir) {
      this.fixture = fixture;
      this.dir = dir;
    }

    @Override
    public void close() throws IOException {
      try {
        fixture.close();
      } finally {
        cluster = null;
        FileUtil.fullyDelete(dir);
      }
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    Running running = context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
        .getOrComputeIfAbsent(SharedCluster.class, key -> start(), Running.class);
    cluster = running.fixture;
  }

  private static Running start() {
    try {
      File dir = Files.createTempDirectory("vivace-session-cluster-").toFile();
      return new Running(ClusterFixture.start(dir, 3), dir);
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the tests' mini-cluster", e);
    }
  }

  /** The run's cluster (for a class extended with this). */
  static ClusterFixture cluster() {
    ClusterFixture running = cluster;
    if (running == null) {
      throw new IllegalStateException("no shared cluster: the class needs @ExtendWith(SharedCluster.class)");
    }
    return running;
  }
}
