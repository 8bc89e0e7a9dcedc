package io.vivace.cluster.client;

import io.vivace.cluster.SessionFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The turn of one client to start the owner's session of a name: a file
 * {@code <home>/.vivace/sessions/<name>.starting}, created only if it does not exist (one atomic
 * call on HDFS's NameNode), naming its holder, and deleted once the holder's session is submitted
 * (YARN then shows it to the others). A lock older than the start timeout is taken for the leftover
 * of a client that died holding it, and broken.
 */
final class StartLock {

  private static final Logger LOG = LoggerFactory.getLogger(StartLock.class);

  private final FileSystem fs;
  private final Path path;

  private StartLock(FileSystem fs, Path path) {
    this.fs = fs;
    this.path = path;
  }

  static StartLock of(Configuration conf, String sessionName) throws IOException {
    String file = URLEncoder.encode(sessionName, StandardCharsets.UTF_8) + ".starting";
    return new StartLock(FileSystem.get(conf), new Path(SessionFiles.sessionsFolder(conf), file));
  }

  /**
   * Takes the lock, breaking it first when it is older than {@code staleMillis} (its holder is gone);
   * false when another client holds it.
   */
  boolean tryTake(long staleMillis) throws IOException {
    return tryTake() || breakIfOlderThan(staleMillis) && tryTake();
  }

  /** Who holds the lock, and where, for messages: {@code another client (held by 123@host, PATH)}. */
  String heldBy() {
    return "another client (" + holder() + ", " + path + ")";
  }

  private boolean tryTake() throws IOException {
    try (OutputStream out = fs.create(path, false)) {
      out.write(("held by " + ManagementFactory.getRuntimeMXBean().getName() + "\n").getBytes(StandardCharsets.UTF_8));
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } catch (IOException e) {
      if (fs.exists(path)) { // some file systems say it in other words
        return false;
      }
      throw e;
    }
  }

  void release() {
    try {
      fs.delete(path, false);
    } catch (IOException e) {
      LOG.warn("could not remove " + path + " (other clients take it for a leftover after the start timeout): " + e);
    }
  }

  /** Who holds it, as its file says. */
  String holder() {
    try (InputStream in = fs.open(path)) {
      return new String(in.readNBytes(200), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      return "a client";
    }
  }

  /** Breaks the lock if it is older than {@code millis} (its holder is gone); true if it did. */
  private boolean breakIfOlderThan(long millis) {
    try {
      FileStatus status = fs.getFileStatus(path);
      if (System.currentTimeMillis() - status.getModificationTime() > millis) {
        LOG.warn("Breaking " + path + ", " + holder() + " and older than " + millis + " ms");
        fs.delete(path, false);
        return true;
      }
    } catch (IOException e) {
      return true; // gone meanwhile: look again
    }
    return false;
  }
}
