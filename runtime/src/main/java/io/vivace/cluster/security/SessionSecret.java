package io.vivace.cluster.security;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * A session's secret: random bytes made when the session starts, known to its application master,
 * its executors and the clients of the user who owns it. (How it reaches them, and what it
 * protects: docs/cluster.md.)
 */
public final class SessionSecret {

  private static final int BYTES = 32;

  private final byte[] key;

  private SessionSecret(byte[] key) {
    this.key = key;
  }

  public static SessionSecret generate() {
    byte[] key = new byte[BYTES];
    new SecureRandom().nextBytes(key);
    return new SessionSecret(key);
  }

  public static SessionSecret decode(String text) {
    return new SessionSecret(Base64.getDecoder().decode(text.trim()));
  }

  public String encode() {
    return Base64.getEncoder().encodeToString(key);
  }

  public byte[] key() {
    return key.clone();
  }
}
