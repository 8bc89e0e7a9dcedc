package io.vivace.cluster.session;

import static io.vivace.cluster.session.SessionHarness.awaitEnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.scheduler.JobRun;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.util.Progressable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The session's master copies each ended job's history to the session's history folder on the
 * cluster's file system; here that folder is on a local file system whose writes wait for the test,
 * as a busy cluster's DataNodes make a copy wait.
 */
class SessionHistoryTest {

  @TempDir
  Path dir;

  @Test
  void theCopiesOfEndedJobsHistoriesNeverHoldBackTheNextJobs() throws Exception {
    HeldFileSystem.hold();
    try (SessionHarness s = new SessionHarness(dir, 0, conf -> {
      conf.set("fs.held.impl", HeldFileSystem.class.getName());
      conf.setBoolean("fs.held.impl.disable.cache", true);
      conf.set("vivace.session.history.dir", "held://" + dir.resolve("history"));
    })) {
      FakeExecutor executor = FakeExecutor.join(s.dispatcher, "container_1", "198.18.0.1", 1);
      for (int n = 1; n <= 3; n++) { // more jobs than the master has step threads
        JobRun job = s.submit(1, 0);
        executor.succeed(executor.awaitRunning(1).get(0));
        assertEquals(JobStatus.State.SUCCEEDED, awaitEnd(job).status().getState(), "job " + n);
      }
      assertTrue(HeldFileSystem.awaitWriting(), "the first ended job's history is being copied, held");
      HeldFileSystem.release();
      assertEquals(3, awaitFiles(dir.resolve("history"), 3), "the three jobs' histories in the session's history folder");
    } finally {
      HeldFileSystem.release();
    }
  }

  /** How many files {@code folder} has once it has {@code n} (a hang guard gives up waiting). */
  private static long awaitFiles(Path folder, int n) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FakeExecutor.GUARD_MILLIS);
    long count = 0;
    while (System.nanoTime() < deadline) {
      if (Files.isDirectory(folder)) {
        try (var files = Files.list(folder)) {
          count = files.count();
        }
      }
      if (count >= n) {
        break;
      }
      Thread.sleep(5);
    }
    return count;
  }

  /** The local file system under the scheme {@code held}, whose file creations wait while it is held. */
  public static class HeldFileSystem extends RawLocalFileSystem {
    private static volatile CountDownLatch released = new CountDownLatch(0);
    private static final AtomicInteger writing = new AtomicInteger();

    static void hold() {
      released = new CountDownLatch(1);
      writing.set(0);
    }

    static void release() {
      released.countDown();
    }

    /** Waits for a creation to be held. */
    static boolean awaitWriting() throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FakeExecutor.GUARD_MILLIS);
      while (writing.get() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      return writing.get() > 0;
    }

    @Override
    public URI getUri() {
      return URI.create("held:///");
    }

    @Override
    public String getScheme() {
      return "held";
    }

    @Override
    public FSDataOutputStream create(org.apache.hadoop.fs.Path f, FsPermission permission, boolean overwrite,
                                     int bufferSize, short replication, long blockSize, Progressable progress)
        throws IOException {
      awaitRelease();
      return super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
    }

    @Override
    public FSDataOutputStream create(org.apache.hadoop.fs.Path f, boolean overwrite, int bufferSize, short replication,
                                     long blockSize, Progressable progress) throws IOException {
      awaitRelease();
      return super.create(f, overwrite, bufferSize, replication, blockSize, progress);
    }

    private static void awaitRelease() throws IOException {
      writing.incrementAndGet();
      try {
        released.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while held");
      }
    }
  }
}
