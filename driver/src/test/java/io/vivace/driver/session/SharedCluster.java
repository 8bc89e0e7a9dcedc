package io.vivace.driver.session;

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

  @Override
  public void beforeAll(ExtensionContext context) {
    cluster = ClusterForTheRun.of(context, SharedCluster.class, "vivace-session-cluster-",
        dir -> ClusterFixture.start(dir, 3));
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
