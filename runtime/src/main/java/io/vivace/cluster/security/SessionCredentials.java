package io.vivace.cluster.security;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * How a session's secret reaches its application master and executors the YARN way: as secret keys
 * of the {@link Credentials} in their containers' launch contexts. YARN's NodeManager writes them to
 * the container's token file, and Hadoop's login in the container reads that file into the current
 * user's credentials, where {@link #ofCurrentUser()} finds them.
 */
public final class SessionCredentials {

  /** The secret key that holds the session's secret. */
  public static final Text SECRET_ALIAS = new Text("vivace.session.secret");
  /** The secret key that holds the session (application) id, UTF-8. */
  public static final Text SESSION_ID_ALIAS = new Text("vivace.session.id");
  /** The secret key that holds the session owner's user name, UTF-8. */
  public static final Text OWNER_ALIAS = new Text("vivace.session.owner");

  private static final String ORIGIN = "the application master and the executors take it from their "
      + "container's credentials, secret key " + SECRET_ALIAS;

  private SessionCredentials() {
  }

  /** Adds the session's id, owner and secret to {@code credentials}. */
  public static void addTo(Credentials credentials, SessionAccess session) {
    if (!session.hasSecret()) {
      throw new IllegalArgumentException("cannot hand " + session + " to its containers without its secret");
    }
    credentials.addSecretKey(SECRET_ALIAS, session.secret().key());
    credentials.addSecretKey(SESSION_ID_ALIAS, session.sessionId().getBytes(StandardCharsets.UTF_8));
    credentials.addSecretKey(OWNER_ALIAS, session.owner().getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The tokens of a container's launch context ({@code ContainerLaunchContext.setTokens}): a copy of
   * {@code base} (e.g. the file system's delegation tokens; never the AM's AMRMToken for an
   * executor) with the session added.
   */
  public static ByteBuffer launchTokens(Credentials base, SessionAccess session) throws IOException {
    Credentials credentials = new Credentials(base);
    addTo(credentials, session);
    DataOutputBuffer out = new DataOutputBuffer();
    credentials.writeTokenStorageToStream(out);
    return ByteBuffer.wrap(out.getData(), 0, out.getLength());
  }

  /** The session that {@code credentials} carry; a clear error when they carry none. */
  public static SessionAccess from(Credentials credentials) throws IOException {
    byte[] secret = required(credentials, SECRET_ALIAS);
    String sessionId = new String(required(credentials, SESSION_ID_ALIAS), StandardCharsets.UTF_8);
    String owner = new String(required(credentials, OWNER_ALIAS), StandardCharsets.UTF_8);
    return new SessionAccess(sessionId, owner, SessionSecret.of(secret), ORIGIN);
  }

  /** The session of this container: from the current user's credentials. */
  public static SessionAccess ofCurrentUser() throws IOException {
    return from(UserGroupInformation.getCurrentUser().getCredentials());
  }

  private static byte[] required(Credentials credentials, Text alias) throws IOException {
    byte[] value = credentials.getSecretKey(alias);
    if (value == null) {
      throw new IOException("no Vivace session in this process's credentials: secret key " + alias
          + " is missing (a session's application master and executors get it in their YARN launch "
          + "context; Hadoop reads it from the file $" + UserGroupInformation.HADOOP_TOKEN_FILE_LOCATION + ")");
    }
    return value;
  }
}
