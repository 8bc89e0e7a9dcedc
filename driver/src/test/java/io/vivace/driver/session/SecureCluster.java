package io.vivace.driver.session;

import java.io.File;
import java.nio.file.Files;
import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The one secure mini-cluster ({@link SecureClusterFixture}) of a test run, started by the first
 * class that needs it ({@code @ExtendWith(SecureCluster.class)}) and stopped when the run ends, as
 * {@link SharedCluster} does for the non-secure one.
 *
 * <p>Kerberos is this JVM's for good once the cluster starts (Hadoop's security settings and login
 * are per JVM), so the classes that use it are tagged {@code kerberos} and run in a test JVM of their
 * own (the driver's pom: surefire's {@code kerberos} execution), never beside the non-secure cluster.
 */
public final class SecureCluster implements BeforeAllCallback {

  /**
   * {@code dfs.namenode.delegation.token.renew-interval} on the cluster: a token nobody renews is
   * dead this long after it was issued or last renewed. Longer than any one test job takes, shorter
   * than a test can wait for.
   */
  static final long TOKEN_RENEW_INTERVAL_MILLIS = 45_000;

  private static volatile SecureClusterFixture cluster;

  /** Closes the cluster and removes its folder when the test run ends. */
  private static final class Running implements ExtensionContext.Store.CloseableResource {
    final SecureClusterFixture fixture;
    final File dir;

    Running(SecureClusterFixture fixture, File dir) {
      this.fixture = fixture;
      this.dir = dir;
    }

    @Override
    public void close() throws Exception {
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
        .getOrComputeIfAbsent(SecureCluster.class, key -> start(), Running.class);
    cluster = running.fixture;
  }

  private static Running start() {
    try {
      File dir = Files.createTempDirectory("vivace-secure-cluster-").toFile();
      return new Running(SecureClusterFixture.start(dir, TOKEN_RENEW_INTERVAL_MILLIS), dir);
    } catch (Exception e) {
      throw new IllegalStateException("could not start the tests' secure mini-cluster", e);
    }
  }

  /** The run's secure cluster (for a class extended with this). */
  static SecureClusterFixture cluster() {
    SecureClusterFixture running = cluster;
    if (running == null) {
      throw new IllegalStateException("no secure cluster: the class needs @ExtendWith(SecureCluster.class)");
    }
    return running;
  }
}
