package io.vivace.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * A tmpfs of a few megabytes mounted on a folder for a test, to fill a local disk for real. Mounting
 * needs root with CAP_SYS_ADMIN (CI runs as root); where it is impossible the test is skipped,
 * saying so.
 */
public final class SmallDisk implements AutoCloseable {

  private final File dir;

  private SmallDisk(File dir) {
    this.dir = dir;
  }

  /** Mounts a tmpfs of {@code size} (as mount's {@code size=} option: {@code 2m}) on {@code dir}, made if need be. */
  public static SmallDisk mount(File dir, String size) {
    dir.mkdirs();
    boolean mounted = exec("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.getAbsolutePath()) == 0;
    assumeTrue(mounted, "cannot mount a " + size + " tmpfs on " + dir + " (needs root with CAP_SYS_ADMIN, "
        + "e.g. not in an unprivileged container): this full-disk test is skipped");
    return new SmallDisk(dir);
  }

  public File dir() {
    return dir;
  }

  @Override
  public void close() {
    if (exec("umount", dir.getAbsolutePath()) != 0) {
      exec("umount", "-l", dir.getAbsolutePath());
    }
  }

  private static int exec(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return -1;
      }
      return p.exitValue();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }
}
