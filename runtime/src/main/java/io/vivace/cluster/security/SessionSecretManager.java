package io.vivace.cluster.security;

import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.SecretManager;
import org.apache.hadoop.security.token.Token;

/**
 * The session server's side of token authentication: the password of a token is an HMAC under the
 * session's secret, and only tokens of this session acting as its owner are accepted. Also makes
 * the tokens callers present ({@link #token}).
 */
public final class SessionSecretManager extends SecretManager<SessionTokenIdentifier> {

  private final SessionAccess session;

  /** For the session's server: {@code session} must hold the secret. */
  public SessionSecretManager(SessionAccess session) {
    if (!session.hasSecret()) {
      throw new IllegalArgumentException(session + " cannot authenticate callers without its secret");
    }
    this.session = session;
  }

  /**
   * A token for {@code user} to call the session {@code access} names, made from the secret
   * {@code access} holds, for the server whose token service is {@code service}.
   */
  public static Token<SessionTokenIdentifier> token(SessionAccess access, String user, Text service) {
    SessionTokenIdentifier identifier = new SessionTokenIdentifier(access.sessionId(), user);
    byte[] password = SessionKeys.tokenPassword(access.secret(), identifier.getBytes());
    return new Token<>(identifier.getBytes(), password, SessionTokenIdentifier.KIND, service);
  }

  @Override
  protected byte[] createPassword(SessionTokenIdentifier identifier) {
    return SessionKeys.tokenPassword(session.secret(), identifier.getBytes());
  }

  @Override
  public byte[] retrievePassword(SessionTokenIdentifier identifier) throws InvalidToken {
    if (!session.sessionId().equals(identifier.sessionId())) {
      throw new InvalidToken("the token is for session " + identifier.sessionId());
    }
    if (!session.owner().equals(identifier.user())) {
      throw new InvalidToken("user " + identifier.user() + " is not the session's owner");
    }
    return createPassword(identifier);
  }

  @Override
  public SessionTokenIdentifier createIdentifier() {
    return new SessionTokenIdentifier();
  }
}
