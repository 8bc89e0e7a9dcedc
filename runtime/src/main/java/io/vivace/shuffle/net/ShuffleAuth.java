package io.vivace.shuffle.net;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The HMACs (HmacSHA256, under the job's shuffle key) that authenticate a map output request to the
 * executor serving it, and its answer to the reducer: the request's MAC covers the job, map,
 * attempt and partition asked for and the request's {@link RequestStamp} (when it was sent, a
 * nonce), so that it can be neither altered nor replayed; the answer's covers the request's MAC and
 * the length and compression the answer announces, so that only a holder of the key can answer.
 * Neither covers the segment's bytes (nor does Hadoop's shuffle; TLS does, when it is on).
 */
public final class ShuffleAuth {

  static final String ALGORITHM = "HmacSHA256";
  /**
   * Distinguishes this protocol's MACs, and its version, from any other use of the key: version 2
   * added the stamp (a version 1 MAC never matches a version 2 one).
   */
  private static final String REQUEST_PREFIX = "vivace-shuffle-2 request\n";
  private static final String ANSWER_PREFIX = "vivace-shuffle-2 answer\n";

  private ShuffleAuth() {
  }

  /** The MAC a reducer sends with {@code request} stamped {@code stamp}. */
  static String requestMac(byte[] key, MapOutputRequest request, RequestStamp stamp) {
    return mac(key, REQUEST_PREFIX + request.canonical() + "\n" + stamp.sentAtMs() + "\n" + stamp.nonce());
  }

  /** The MAC an executor sends with its answer to a request whose MAC was {@code requestMac}. */
  public static String answerMac(byte[] key, String requestMac, long length, boolean compressed) {
    return mac(key, ANSWER_PREFIX + requestMac + "\n" + length + "\n" + compressed);
  }

  /** Whether {@code given} is {@code expected}, compared in time that does not depend on where they differ. */
  public static boolean matches(String expected, String given) {
    return given != null && MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
        given.getBytes(StandardCharsets.US_ASCII));
  }

  /** Whether {@code key} can key a MAC: not null, not empty. */
  public static boolean usable(byte[] key) {
    return key != null && key.length > 0;
  }

  private static String mac(byte[] key, String message) {
    if (!usable(key)) {
      throw new IllegalArgumentException("the job's shuffle key is missing or empty");
    }
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(new SecretKeySpec(key, ALGORITHM));
      byte[] digest = mac.doFinal(message.getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      // every Java platform must provide HmacSHA256, and any non-empty key suits it
      throw new IllegalStateException(ALGORITHM + " is not available: " + e, e);
    }
  }
}
