package io.vivace.shuffle.net;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * What makes a map output request fresh: when the reducer sent it and a random nonce of its own.
 * The request's MAC covers both, so that a captured request can be neither replayed (the executor
 * remembers the nonces it has accepted, {@link ReplayGuard}) nor re-dated.
 *
 * @param sentAtMs the reducer's clock when it made the request, in ms since the epoch
 * @param nonce 128 random bits, unpadded URL-safe Base64 (22 characters)
 */
record RequestStamp(long sentAtMs, String nonce) {

  private static final SecureRandom RANDOM = new SecureRandom();

  RequestStamp {
    if (nonce == null || nonce.isEmpty() || nonce.length() > 64 || !nonce.matches("[A-Za-z0-9_-]+")) {
      throw new IllegalArgumentException("a nonce is 1 to 64 URL-safe Base64 characters, not \"" + nonce + "\"");
    }
  }

  /** A stamp for a request made now. */
  static RequestStamp now() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return new RequestStamp(System.currentTimeMillis(), Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
  }

  /** The stamp of the request's headers, or null when they hold none or a malformed one. */
  static RequestStamp parse(String sentAt, String nonce) {
    if (sentAt == null || nonce == null) {
      return null;
    }
    try {
      return new RequestStamp(Long.parseLong(sentAt), nonce);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
