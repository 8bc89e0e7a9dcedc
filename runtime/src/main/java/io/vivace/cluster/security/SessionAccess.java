package io.vivace.cluster.security;

import java.util.Objects;

/**
 * What it takes to use a session: its id (the YARN application id), the user who owns it, and its
 * secret, with where that secret came from (a file, a container's credentials) for error messages.
 * The secret is null for a caller who could not obtain it; such a caller is refused by the session.
 */
public final class SessionAccess {

  private final String sessionId;
  private final String owner;
  private final SessionSecret secret;
  private final String secretOrigin;

  public SessionAccess(String sessionId, String owner, SessionSecret secret, String secretOrigin) {
    this.sessionId = requireText(sessionId, "session id");
    this.owner = requireText(owner, "session owner");
    this.secret = secret;
    this.secretOrigin = Objects.requireNonNull(secretOrigin, "secretOrigin");
  }

  private static String requireText(String value, String what) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("a Vivace session needs a " + what + ", got '" + value + "'");
    }
    return value;
  }

  public String sessionId() {
    return sessionId;
  }

  public String owner() {
    return owner;
  }

  /** The secret, or null when the caller has none. */
  public SessionSecret secret() {
    return secret;
  }

  public boolean hasSecret() {
    return secret != null;
  }

  /** Where the secret comes from, in words (e.g. "the session's secret is readable only by its owner: ..."). */
  public String secretOrigin() {
    return secretOrigin;
  }

  @Override
  public String toString() {
    return "Vivace session " + sessionId + " of user " + owner;
  }
}
