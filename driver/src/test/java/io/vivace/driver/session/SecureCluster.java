package io.vivace.driver.session;

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

  @Override
  public void beforeAll(ExtensionContext context) {
    cluster = ClusterForTheRun.of(context, SecureCluster.class, "vivace-secure-cluster-",
        dir -> SecureClusterFixture.start(dir, TOKEN_RENEW_INTERVAL_MILLIS));
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
