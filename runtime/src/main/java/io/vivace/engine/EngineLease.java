package io.vivace.engine;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Properties;

/**
 * An engine's claim on {@code <hadoop.tmp.dir>/vivace/engines/<cluster id>}: a folder named after
 * the engine's start time, which makes the job ids it hands out unique among the engines sharing
 * that directory, holding a {@code lock} file the engine keeps locked while it lives (the kernel
 * releases the lock when the process dies, however it dies) and one record per running job of what
 * the job has on disk ({@link JobFiles}). {@link Leftovers} reads the records of dead engines.
 */
final class EngineLease {

  static final String LOCK = "lock";
  static final String JOBS = "jobs";

  private final File dir;
  private final String clusterId;
  @SuppressWarnings("unused") // held for the life of the JVM: the lock is the engine's liveness
  private final FileLock lock;

  private EngineLease(File dir, String clusterId, FileLock lock) {
    this.dir = dir;
    this.clusterId = clusterId;
    this.lock = lock;
  }

  static File enginesRoot(String hadoopTmpDir) {
    return new File(hadoopTmpDir, "vivace/engines");
  }

  /** Claims a folder named after the current time (or the first free millisecond after it) and locks it. */
  static EngineLease claim(File root) {
    if (!root.isDirectory() && !root.mkdirs() && !root.isDirectory()) {
      throw new UncheckedIOException(new IOException("cannot create " + root + " (check hadoop.tmp.dir)"));
    }
    long ts = System.currentTimeMillis();
    for (int i = 0; i < 1000; i++, ts++) {
      File claim = new File(root, Long.toString(ts));
      if (claim.mkdir()) {
        try {
          return new EngineLease(claim, Long.toString(ts), lock(claim));
        } catch (IOException e) {
          throw new UncheckedIOException("cannot lock the engine's folder " + claim, e);
        }
      }
    }
    throw new IllegalStateException("no free engine folder under " + root + " for the last 1000 ms");
  }

  /**
   * Locks a new {@code lock.tmp} and then renames it {@code lock}, so that no other engine ever sees
   * an unlocked {@code lock} file in a live engine's folder.
   */
  private static FileLock lock(File claim) throws IOException {
    File tmp = new File(claim, LOCK + ".tmp");
    FileChannel channel = FileChannel.open(tmp.toPath(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    FileLock lock = channel.lock();
    channel.write(java.nio.ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid()).getBytes()));
    Files.move(tmp.toPath(), new File(claim, LOCK).toPath(), StandardCopyOption.ATOMIC_MOVE);
    return lock;
  }

  /** True when the engine of {@code claim} is gone: its lock file exists and can be locked. */
  static boolean isDead(File claim) {
    File lockFile = new File(claim, LOCK);
    if (!lockFile.isFile()) {
      return false; // no lock yet (still starting), or an engine of a version without one
    }
    try (FileChannel channel = FileChannel.open(lockFile.toPath(), StandardOpenOption.WRITE)) {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        return false;
      }
      lock.release();
      return true;
    } catch (OverlappingFileLockException thisJvmHoldsIt) {
      return false;
    } catch (IOException e) {
      return false;
    }
  }

  String clusterId() {
    return clusterId;
  }

  /** Records what a running job keeps on disk, until {@link #forget}. */
  void record(String jobId, JobFiles files) {
    File jobs = new File(dir, JOBS);
    jobs.mkdirs();
    File record = new File(jobs, jobId + ".properties");
    File tmp = new File(jobs, jobId + ".properties.tmp");
    try (FileOutputStream out = new FileOutputStream(tmp)) {
      files.toProperties().store(out, "files of job " + jobId);
      Files.move(tmp.toPath(), record.toPath(), StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      // a crash would then leave this job's files to be removed by hand; the job itself is fine
      org.slf4j.LoggerFactory.getLogger(EngineLease.class).warn("cannot record the files of " + jobId
          + " in " + record + ": " + e);
    }
  }

  /** Removes the engine's folder when it has no job left on record (the JVM is ending). */
  void release() {
    String[] jobs = new File(dir, JOBS).list();
    if (jobs == null || jobs.length == 0) {
      org.apache.hadoop.fs.FileUtil.fullyDelete(dir);
    }
  }

  void forget(String jobId) {
    new File(new File(dir, JOBS), jobId + ".properties").delete();
  }

  /** What a job keeps on disk while it runs, by where it lives. */
  record JobFiles(String localDirs, String stagingDir, String outputDir, String historyDir) {

    Properties toProperties() {
      Properties p = new Properties();
      p.setProperty("localDirs", localDirs);
      p.setProperty("stagingDir", stagingDir);
      if (outputDir != null) {
        p.setProperty("outputDir", outputDir);
      }
      p.setProperty("historyDir", historyDir);
      return p;
    }

    static JobFiles of(Properties p) {
      return new JobFiles(p.getProperty("localDirs", ""), p.getProperty("stagingDir", ""),
          p.getProperty("outputDir"), p.getProperty("historyDir", ""));
    }
  }
}
