package io.vivace.cluster.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Keys and passwords derived from a session's secret, each with its own label so that no two uses
 * of the secret can be confused: the password of an RPC token and the key that authenticates a
 * job's shuffle fetches.
 */
public final class SessionKeys {

  private static final String HMAC = "HmacSHA256";
  private static final byte[] TOKEN_LABEL = "rpc-token:".getBytes(StandardCharsets.UTF_8);

  private SessionKeys() {
  }

  /**
   * The key with which a job's shuffle authenticates its fetches: HMAC-SHA256 under the session's
   * secret of {@code "shuffle:" + jobId}. Executors of the session can compute it, nobody else.
   */
  public static byte[] jobShuffleKey(SessionSecret secret, String jobId) {
    return hmac(secret.key(), ("shuffle:" + jobId).getBytes(StandardCharsets.UTF_8));
  }

  /** The password of an RPC token: HMAC-SHA256 under the session's secret of the token's identifier. */
  static byte[] tokenPassword(SessionSecret secret, byte[] identifier) {
    return hmac(secret.key(), TOKEN_LABEL, identifier);
  }

  /** HMAC-SHA256 of the concatenation of {@code parts} under {@code key}. */
  static byte[] hmac(byte[] key, byte[]... parts) {
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(new SecretKeySpec(key, HMAC));
      for (byte[] part : parts) {
        mac.update(part);
      }
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      // Every Java runtime provides HmacSHA256.
      throw new IllegalStateException(HMAC + " is not available", e);
    }
  }
}
