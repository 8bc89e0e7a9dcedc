package io.vivace.cluster.security;

import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Where later clients of a session's owner find its secret: {@code <home>/.vivace/sessions/<session
 * id>.secret} on the cluster file system, in the owner's home ({@code <homes>/<owner>}, where
 * {@code homes} is HDFS's {@code dfs.user.home.dir.prefix}, {@code /user} by default). The folder is
 * 0700 and the file 0600, so on a file system that checks permissions only the owner (and the file
 * system's superuser) can read it. Written atomically: a reader sees the whole secret or no file.
 */
public final class SessionSecretStore {

  /** HDFS's key for the folder of users' homes. */
  public static final String HOMES_KEY = "dfs.user.home.dir.prefix";
  public static final String HOMES_DEFAULT = "/user";

  private static final FsPermission FILE = new FsPermission((short) 0600);
  private static final String SUFFIX = ".secret";
  private static final int MAX_BYTES = 4096;

  private final FileSystem fs;
  private final Path homes;

  /** A store in the homes under {@code homes} (qualified on {@code fs}). */
  public SessionSecretStore(FileSystem fs, Path homes) {
    this.fs = fs;
    this.homes = fs.makeQualified(homes);
  }

  /** The store on the default file system of {@code conf}, under its users' homes. */
  public static SessionSecretStore forCluster(Configuration conf) throws IOException {
    return new SessionSecretStore(FileSystem.get(conf), new Path(conf.get(HOMES_KEY, HOMES_DEFAULT)));
  }

  /** The folder of {@code owner}'s session secrets. */
  public Path folder(String owner) {
    return new Path(new Path(new Path(homes, owner), ".vivace"), "sessions");
  }

  /** The file of a session's secret. */
  public Path path(String owner, String sessionId) {
    return new Path(folder(owner), sessionId + SUFFIX);
  }

  /**
   * Stores the session's secret for its owner's later clients. Must run as the owner: the folder is
   * made (or tightened to) 0700 and must belong to the owner before the secret goes in.
   */
  public void write(SessionAccess session) throws IOException {
    if (!session.hasSecret()) {
      throw new IllegalArgumentException("cannot store the secret of " + session + ": it has none");
    }
    Path folder = folder(session.owner());
    Path file = path(session.owner(), session.sessionId());
    PrivateFolder.make(fs, folder);
    FileStatus status = fs.getFileStatus(folder);
    if (!session.owner().equals(status.getOwner())) {
      throw new AccessControlException("not storing the secret of " + session + " in " + folder
          + ": the folder belongs to user " + status.getOwner() + ", not to the session's owner");
    }
    Path temporary = new Path(folder, "." + file.getName() + "." + UUID.randomUUID() + ".tmp");
    try {
      try (FSDataOutputStream out = fs.create(temporary, FILE, false, MAX_BYTES,
          fs.getDefaultReplication(temporary), fs.getDefaultBlockSize(temporary), null)) {
        out.write((session.secret().encode() + "\n").getBytes(StandardCharsets.US_ASCII));
      }
      fs.setPermission(temporary, FILE);
      // A file of the same session (written by an earlier attempt) holds the same secret.
      if (!fs.rename(temporary, file) && !(fs.delete(file, false) && fs.rename(temporary, file))) {
        throw new IOException("could not rename " + temporary + " to " + file);
      }
    } catch (IOException | RuntimeException e) {
      deleteQuietly(temporary, e);
      throw new IOException("could not store the secret of " + session + " in " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * The secret of {@code owner}'s session, as the current user reads it; a
   * {@link SessionAccessException} when that user may not read it, a FileNotFoundException when there
   * is none (the session has stopped, or never started).
   */
  public SessionAccess read(String owner, String sessionId) throws IOException {
    Path file = path(owner, sessionId);
    String reader = UserGroupInformation.getCurrentUser().getShortUserName();
    String text;
    try (InputStream in = fs.open(file)) {
      text = readSmall(in, file);
    } catch (AccessControlException e) {
      throw (SessionAccessException) new SessionAccessException(sessionId, owner, "user " + reader
          + " may not read the session's secret " + file + " (only the session's owner can)").initCause(e);
    } catch (FileNotFoundException e) {
      throw (FileNotFoundException) new FileNotFoundException("Vivace session " + sessionId + " of user "
          + owner + " has no readable secret at " + file + ": the session has stopped or never started"
          + (reader.equals(owner) ? "" : ", or user " + reader + " may not read it (only its owner can)"))
          .initCause(e);
    }
    try {
      return new SessionAccess(sessionId, owner, SessionSecret.decode(text), origin(file));
    } catch (IllegalArgumentException e) {
      throw new IOException(file + " does not hold a Vivace session secret: " + e.getMessage(), e);
    }
  }

  /** Removes the session's secret when the session stops; false if there was none. */
  public boolean delete(String owner, String sessionId) throws IOException {
    return fs.delete(path(owner, sessionId), false);
  }

  /** The words a refused client reads about where the secret is. */
  public static String origin(Path file) {
    return "the session's secret is readable only by its owner: " + file;
  }

  private static String readSmall(InputStream in, Path file) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    byte[] buffer = new byte[512];
    for (int n; (n = in.read(buffer)) > 0; ) {
      bytes.write(buffer, 0, n);
      if (bytes.size() > MAX_BYTES) {
        throw new IOException(file + " is not a Vivace session secret: longer than " + MAX_BYTES + " bytes");
      }
    }
    return bytes.toString(StandardCharsets.US_ASCII);
  }

  private void deleteQuietly(Path path, Exception failure) {
    try {
      fs.delete(path, false);
    } catch (IOException e) {
      failure.addSuppressed(e);
    }
  }
}
