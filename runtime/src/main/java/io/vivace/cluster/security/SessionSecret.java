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
  private static final int MIN_BYTES = 16;

  private final byte[] key;

  private SessionSecret(byte[] key) {
    this.key = key;
  }

  public static SessionSecret generate() {
    byte[] key = new byte[BYTES];
    new SecureRandom().nextBytes(key);
    return new SessionSecret(key);
  }

  /** A secret of these bytes (copied); at least {@value #MIN_BYTES} of them. */
  public static SessionSecret of(byte[] key) {
    if (key.length < MIN_BYTES) {
      throw new IllegalArgumentException("a Vivace session secret has at least " + MIN_BYTES + " bytes, got "
          + key.length);
    }
    return new SessionSecret(key.clone());
  }

  /** The secret {@link #encode} wrote; IllegalArgumentException when {@code text} is not one. */
  public static SessionSecret decode(String text) {
    return of(Base64.getDecoder().decode(text.trim()));
  }

  public String encode() {
    return Base64.getEncoder().encodeToString(key);
  }

  public byte[] key() {
    return key.clone();
  }
}
