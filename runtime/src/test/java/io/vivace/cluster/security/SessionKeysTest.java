package io.vivace.cluster.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class SessionKeysTest {

  private final SessionSecret secret = SessionSecret.generate();

  /** The derivation the network shuffle relies on, computed here with the JDK alone. */
  @Test
  void aJobsShuffleKeyIsTheHmacOfItsIdUnderTheSessionsSecret() throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.key(), "HmacSHA256"));
    byte[] expected = mac.doFinal("shuffle:job_1700000000000_0001".getBytes(StandardCharsets.UTF_8));
    assertArrayEquals(expected, SessionKeys.jobShuffleKey(secret, "job_1700000000000_0001"));
    assertEquals(32, expected.length);
  }

  @Test
  void jobsAndSessionsHaveKeysOfTheirOwn() {
    byte[] key = SessionKeys.jobShuffleKey(secret, "job_1_0001");
    assertFalse(Arrays.equals(key, SessionKeys.jobShuffleKey(secret, "job_1_0002")));
    assertFalse(Arrays.equals(key, SessionKeys.jobShuffleKey(SessionSecret.generate(), "job_1_0001")));
    assertArrayEquals(key, SessionKeys.jobShuffleKey(SessionSecret.decode(secret.encode()), "job_1_0001"));
  }

  @Test
  void aTokensPasswordIsNotAShuffleKey() {
    byte[] identifier = "shuffle:job_1_0001".getBytes(StandardCharsets.UTF_8);
    assertFalse(Arrays.equals(SessionKeys.tokenPassword(secret, identifier),
        SessionKeys.jobShuffleKey(secret, "job_1_0001")));
  }
}
