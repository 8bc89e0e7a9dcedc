package io.vivace.cluster.security;

/** Run in a JVM of its own: prints the session this process's Hadoop login found in its credentials. */
public final class PrintContainerSession {

  private PrintContainerSession() {
  }

  public static void main(String[] args) throws Exception {
    SessionAccess session = SessionCredentials.ofCurrentUser();
    System.out.println(session.sessionId() + " " + session.owner() + " " + session.secret().encode());
  }
}
