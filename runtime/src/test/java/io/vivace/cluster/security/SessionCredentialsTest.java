package io.vivace.cluster.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionCredentialsTest {

  private final SessionAccess session = new SessionAccess("application_1700000000000_0007", "alice",
      SessionSecret.generate(), "test");

  @Test
  void aContainersLaunchTokensCarryTheSessionAndKeepTheOtherTokens() throws IOException {
    Credentials base = new Credentials();
    Token<?> hdfs = new Token<>(new byte[] {1}, new byte[] {2}, new Text("HDFS_DELEGATION_TOKEN"), new Text("nn:8020"));
    base.addToken(new Text("nn:8020"), hdfs);
    Credentials read = readBack(SessionCredentials.launchTokens(base, session));
    assertEquals(hdfs, read.getToken(new Text("nn:8020")));
    assertEquals(0, base.numberOfSecretKeys(), "the base credentials are left as they were");
    SessionAccess back = SessionCredentials.from(read);
    assertEquals(session.sessionId(), back.sessionId());
    assertEquals("alice", back.owner());
    assertArrayEquals(session.secret().key(), back.secret().key());
  }

  @Test
  void credentialsWithoutASessionGiveAClearError() {
    IOException e = assertThrows(IOException.class, () -> SessionCredentials.from(new Credentials()));
    assertEquals("no Vivace session in this process's credentials: secret key vivace.session.secret is missing "
        + "(a session's application master and executors get it in their YARN launch context; Hadoop reads it "
        + "from the file $HADOOP_TOKEN_FILE_LOCATION)", e.getMessage());
  }

  /**
   * YARN's NodeManager writes a launch context's tokens to a file named by HADOOP_TOKEN_FILE_LOCATION;
   * a JVM started so finds the session in its current user's credentials.
   */
  @Test
  void aJvmLaunchedWithTheTokensFileFindsTheSession(@TempDir Path dir) throws Exception {
    Path tokens = dir.resolve("container_tokens");
    ByteBuffer bytes = SessionCredentials.launchTokens(new Credentials(), session);
    Files.write(tokens, bytesOf(bytes));
    ProcessBuilder jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), PrintContainerSession.class.getName())
        .redirectErrorStream(true);
    jvm.environment().put(UserGroupInformation.HADOOP_TOKEN_FILE_LOCATION, tokens.toString());
    Process process = jvm.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    process.waitFor(2, TimeUnit.MINUTES);
    assertEquals(0, process.exitValue(), output);
    String[] lines = output.strip().split("\n");
    assertEquals(session.sessionId() + " alice " + session.secret().encode(), lines[lines.length - 1]);
  }

  private static Credentials readBack(ByteBuffer tokens) throws IOException {
    Credentials credentials = new Credentials();
    credentials.readTokenStorageStream(new DataInputStream(new ByteArrayInputStream(bytesOf(tokens))));
    return credentials;
  }

  /** The bytes of a buffer from its position to its limit. */
  private static byte[] bytesOf(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }
}
