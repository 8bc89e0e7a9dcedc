package io.vivace.cluster;

import io.vivace.cluster.security.PrivateFolder;
import io.vivace.cluster.security.SessionSecretStore;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A session's files in its owner's home on the cluster's file system, beside its secret
 * ({@link SessionSecretStore}): {@code <home>/.vivace/sessions/<application id>/} holds the
 * configuration its containers start with (the client's, which may name credentials), so the
 * folder is {@code 0700} and its files {@code 0600}. The session removes them when it ends, a
 * stopped session's client does, and a client starting a session removes those of sessions that
 * ended without doing so (killed, crashed).
 */
public final class SessionFiles {

  private static final Logger LOG = LoggerFactory.getLogger(SessionFiles.class);
  private static final FsPermission FILE = new FsPermission((short) 0600);
  private static final String SECRET_SUFFIX = ".secret";

  private SessionFiles() {
  }

  /** The owner's sessions folder (the current user's), made {@code 0700} if it is not. */
  public static Path sessionsFolder(Configuration conf) throws IOException {
    FileSystem fs = FileSystem.get(conf);
    Path sessions = fs.makeQualified(SessionSecretStore.forCluster(conf).folder(currentUser()));
    PrivateFolder.make(fs, sessions);
    return sessions;
  }

  /** The folder of session {@code sessionId} of the current user, made {@code 0700}. */
  public static Path folder(Configuration conf, String sessionId) throws IOException {
    Path folder = new Path(sessionsFolder(conf), sessionId);
    PrivateFolder.make(FileSystem.get(conf), folder);
    return folder;
  }

  /** A new file readable by its owner only ({@code 0600}), replacing any of that name. */
  public static OutputStream createPrivate(FileSystem fs, Path file) throws IOException {
    OutputStream out = fs.create(file, FILE, true, 4096, fs.getDefaultReplication(file),
        fs.getDefaultBlockSize(file), null);
    fs.setPermission(file, FILE); // create applies the umask
    return out;
  }

  /** Removes a session's secret and folder (run as {@code owner}, or as the session's own user). */
  public static void forget(Configuration conf, String owner, String sessionId) throws IOException {
    SessionSecretStore secrets = SessionSecretStore.forCluster(conf);
    secrets.delete(owner, sessionId);
    FileSystem.get(conf).delete(new Path(secrets.folder(owner), sessionId), true);
  }

  /**
   * Removes the files of the current user's sessions that are over (their application ended, or
   * YARN no longer knows it) and older than {@code olderThanMillis}: a session being started by
   * another client has its files before YARN knows its application.
   */
  public static void sweep(YarnClient yarn, Configuration conf, long olderThanMillis) {
    try {
      FileSystem fs = FileSystem.get(conf);
      Path sessions = sessionsFolder(conf);
      long before = System.currentTimeMillis() - olderThanMillis;
      for (FileStatus entry : fs.listStatus(sessions)) {
        String name = entry.getPath().getName();
        String id = name.endsWith(SECRET_SUFFIX) ? name.substring(0, name.length() - SECRET_SUFFIX.length()) : name;
        if (id.startsWith("application_") && entry.getModificationTime() < before && !alive(yarn, id)) {
          LOG.info("Removing " + entry.getPath() + ": session " + id + " is over");
          fs.delete(entry.getPath(), true);
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("could not remove the files of ended Vivace sessions: " + e);
    }
  }

  private static boolean alive(YarnClient yarn, String id) throws IOException {
    try {
      YarnApplicationState state = yarn.getApplicationReport(ApplicationId.fromString(id)).getYarnApplicationState();
      return state != YarnApplicationState.FINISHED && state != YarnApplicationState.FAILED
          && state != YarnApplicationState.KILLED;
    } catch (ApplicationNotFoundException e) {
      return false;
    } catch (YarnException | IllegalArgumentException e) {
      return true; // cannot tell: leave it
    }
  }


  private static String currentUser() throws IOException {
    return UserGroupInformation.getCurrentUser().getShortUserName();
  }
}
