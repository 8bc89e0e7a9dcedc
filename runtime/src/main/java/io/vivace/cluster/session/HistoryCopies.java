package io.vivace.cluster.session;

import java.io.File;
import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies each ended job's history file to the session's history folder on the cluster's file
 * system, one after another on a thread of its own: a copy (a create, a block written through the
 * DataNodes' pipeline, a complete) takes hundreds of milliseconds, and on the master's step threads
 * it held back the next jobs' setup as soon as they came within that time.
 */
final class HistoryCopies {

  private static final Logger LOG = LoggerFactory.getLogger(HistoryCopies.class);

  private final Configuration conf;
  private final Path folder;
  private final ExecutorService copier = Executors.newSingleThreadExecutor(SessionMaster.daemonThreads(
      "vivace-session-history-"));

  HistoryCopies(Configuration conf, Path folder) {
    this.conf = conf;
    this.folder = folder;
  }

  /**
   * Copies (then deletes) the local history file of a job that ended, once the copies before it are
   * done, as the job's {@code user} (with its credentials: on a Kerberos cluster, its delegation tokens).
   */
  void copy(String jobId, File local, UserGroupInformation user) {
    Runnable copy = () -> copyNow(jobId, local, user);
    try {
      copier.execute(copy);
    } catch (RejectedExecutionException ending) {
      copy.run(); // a job that ends as the session ends: on its own thread, the last
    }
  }

  private void copyNow(String jobId, File local, UserGroupInformation user) {
    try {
      // a file system of its own, closed after the copy: the job's identity is not used again
      user.doAs((PrivilegedExceptionAction<Void>) () -> {
        try (FileSystem fs = FileSystem.newInstance(folder.toUri(), conf)) {
          fs.mkdirs(folder);
          fs.copyFromLocalFile(true, true, new Path(local.getAbsolutePath()), new Path(folder, local.getName()));
        }
        return null;
      });
    } catch (IOException e) {
      LOG.warn("could not copy the history of " + jobId + " to " + folder + ": " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      LOG.warn("interrupted while copying the history of " + jobId + " to " + folder);
    }
  }

  /** Takes no more copies and waits up to {@code millis} for those asked for; false when some are not done. */
  boolean finish(long millis) throws InterruptedException {
    copier.shutdown();
    return copier.awaitTermination(millis, TimeUnit.MILLISECONDS);
  }
}
