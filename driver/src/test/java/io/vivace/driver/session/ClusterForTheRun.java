package io.vivace.driver.session;

import java.io.File;
import java.nio.file.Files;
import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A cluster fixture shared by a test run: started in a folder of its own by the first class that
 * asks ({@link #of}), kept in JUnit's root store, closed and its folder removed when the run ends.
 * What {@link SharedCluster} and {@link SecureCluster} hold.
 */
final class ClusterForTheRun<F extends AutoCloseable> implements ExtensionContext.Store.CloseableResource {

  /** Starts a fixture in {@code dir}. */
  interface Starter<F> {
    F start(File dir) throws Exception;
  }

  final F fixture;
  private final File dir;

  private ClusterForTheRun(F fixture, File dir) {
    this.fixture = fixture;
    this.dir = dir;
  }

  /** The run's fixture kept under {@code key}, started by {@code starter} in a new folder named {@code prefix...} if none is. */
  @SuppressWarnings("unchecked")
  static <F extends AutoCloseable> F of(ExtensionContext context, Class<?> key, String prefix, Starter<F> starter) {
    return ((ClusterForTheRun<F>) context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
        .getOrComputeIfAbsent(key, k -> start(prefix, starter), ClusterForTheRun.class)).fixture;
  }

  private static <F extends AutoCloseable> ClusterForTheRun<F> start(String prefix, Starter<F> starter) {
    File dir = null;
    try {
      dir = Files.createTempDirectory(prefix).toFile();
      return new ClusterForTheRun<>(starter.start(dir), dir);
    } catch (Exception e) {
      if (dir != null) {
        FileUtil.fullyDelete(dir);
      }
      throw new IllegalStateException("could not start the tests' cluster in " + dir, e);
    }
  }

  @Override
  public void close() throws Exception {
    try {
      fixture.close();
    } finally {
      FileUtil.fullyDelete(dir);
    }
  }
}
