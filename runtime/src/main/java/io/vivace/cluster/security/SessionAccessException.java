package io.vivace.cluster.security;

import org.apache.hadoop.security.AccessControlException;

/** A caller may not use a session: it has no valid secret for it, or is not the session's owner. */
public final class SessionAccessException extends AccessControlException {

  private static final long serialVersionUID = 1L;

  public SessionAccessException(String sessionId, String owner, String reason) {
    super("not allowed to use Vivace session " + sessionId + " of user " + owner + ": " + reason);
  }

  /** {@code user} failed to authenticate to the session; {@code detail} says why, as Hadoop's RPC reported it. */
  public static SessionAccessException noValidSecret(SessionAccess access, String user, String detail,
                                                     Throwable cause) {
    SessionAccessException e = new SessionAccessException(access.sessionId(), access.owner(),
        "no valid session secret for user " + user + " (" + access.secretOrigin() + ")"
            + (detail == null || detail.isBlank() ? "" : "; refused: " + detail));
    e.initCause(cause);
    return e;
  }
}
