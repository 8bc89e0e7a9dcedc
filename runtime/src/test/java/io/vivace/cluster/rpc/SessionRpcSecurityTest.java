package io.vivace.cluster.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.security.SessionAccess;
import io.vivace.cluster.security.SessionAccessException;
import io.vivace.cluster.security.SessionSecret;
import io.vivace.cluster.security.SessionTokenSelector;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.NegotiatedQop;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.mapreduce.security.token.delegation.DelegationTokenSelector;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.AnnotatedSecurityInfo;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A session's RPC server from {@link SessionRpc#server} on a real Hadoop RPC server, called through
 * {@link SessionRpc#proxy}: the owner with the session's secret gets through on both protocols;
 * everyone else is refused with a message that says why, before the server's code sees a call.
 */
class SessionRpcSecurityTest {

  private static final String SESSION = "application_123_0001";
  private static final String ORIGIN = "the session's secret is readable only by its owner: "
      + "/user/alice/.vivace/sessions/" + SESSION + ".secret";

  private final SessionSecret secret = SessionSecret.generate();
  private final FixedClientProtocol clients = new FixedClientProtocol();
  private final CountingExecutors executors = new CountingExecutors();
  private RPC.Server server;
  private InetSocketAddress address;

  private InetSocketAddress start(Configuration conf) throws Exception {
    server = SessionRpc.server(conf, "127.0.0.1", 2, new SessionAccess(SESSION, "alice", secret, ORIGIN),
        clients.protocol, executors, new RefusingControl());
    server.start();
    address = NetUtils.getConnectAddress(server);
    return address;
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop();
    }
  }

  @Test
  void theOwnerWithTheSecretCallsBothProtocols() throws Exception {
    start(new Configuration(false));
    SessionAccess access = new SessionAccess(SESSION, "alice", secret, ORIGIN);
    UserGroupInformation alice = UserGroupInformation.createRemoteUser("alice");
    ClientProtocol client = SessionRpc.proxy(ClientProtocol.class, address, new Configuration(false), access, alice);
    ExecutorProtocol executor = SessionRpc.proxy(ExecutorProtocol.class, address, new Configuration(false), access,
        alice);
    try {
      assertEquals(FixedClientProtocol.JOB, client.getNewJobID());
      assertEquals(7, executor.register(new ExecutorInfo("container_1", "host", 1, 2)));
    } finally {
      SessionRpc.close(client);
      SessionRpc.close(executor);
    }
    assertEquals(List.of("getNewJobID by alice (TOKEN)"), clients.calls);
    assertEquals(List.of("register container_1 by alice (TOKEN)"), executors.calls);
    assertTrue(alice.getTokens().isEmpty(), "the caller's own UGI is left as it was");
  }

  @Test
  void aClientWithoutTheSecretIsRefused() throws Exception {
    start(new Configuration(false));
    assertRefused("alice", new SessionAccess(SESSION, "alice", null, ORIGIN),
        "SIMPLE authentication is not enabled.  Available:[TOKEN]");
  }

  @Test
  void aClientWithAWrongSecretIsRefused() throws Exception {
    start(new Configuration(false));
    assertRefused("alice", new SessionAccess(SESSION, "alice", SessionSecret.generate(), ORIGIN),
        "DIGEST-MD5: digest response format violation. Mismatched response.");
  }

  @Test
  void anotherUserIsRefusedEvenWithTheRightSecret() throws Exception {
    start(new Configuration(false));
    assertRefused("bob", new SessionAccess(SESSION, "alice", secret, ORIGIN),
        "user bob is not the session's owner");
  }

  @Test
  void aTokenOfAnotherSessionIsRefused() throws Exception {
    start(new Configuration(false));
    SessionAccess other = new SessionAccess("application_123_0002", "alice", secret, "its file");
    SessionAccessException e = assertThrows(SessionAccessException.class,
        () -> call(ClientProtocol.class, "alice", other));
    assertEquals("not allowed to use Vivace session application_123_0002 of user alice: no valid session "
        + "secret for user alice (its file); refused: the token is for session application_123_0002", e.getMessage());
    assertEquals(List.of(), clients.calls);
  }

  @Test
  void refusalsOfTheSessionsOwnCodeReachTheCallerUnchanged() throws Exception {
    start(new Configuration(false));
    ClientProtocol client = SessionRpc.proxy(ClientProtocol.class, address, new Configuration(false),
        new SessionAccess(SESSION, "alice", secret, ORIGIN), UserGroupInformation.createRemoteUser("alice"));
    try {
      RemoteException e = assertThrows(RemoteException.class, () -> client.killJob(new JobID("session", 2)));
      assertEquals(AccessControlException.class.getName(), e.getClassName());
      assertTrue(e.getMessage().startsWith("the session's own refusal to kill job_session_0002"), e.getMessage());
    } finally {
      SessionRpc.close(client);
    }
    assertEquals(List.of("killJob by alice (TOKEN)"), clients.calls);
  }

  @Test
  void aSessionWhoseMasterHasEndedIsNamedAsUnreachable() throws Exception {
    start(new Configuration(false));
    Configuration conf = new Configuration(false);
    conf.setInt("ipc.client.connect.max.retries", 0);
    ClientProtocol client = SessionRpc.proxy(ClientProtocol.class, address, conf,
        new SessionAccess(SESSION, "alice", secret, ORIGIN), UserGroupInformation.createRemoteUser("alice"));
    try {
      assertEquals(FixedClientProtocol.JOB, client.getNewJobID());
      server.stop();
      server = null;
      SessionUnreachableException e = assertThrows(SessionUnreachableException.class, client::getNewJobID);
      assertTrue(e.getMessage().startsWith("the master of Vivace session " + SESSION + " of user alice cannot be "
          + "reached at " + address + ": it has ended"), e.getMessage());
      assertTrue(e.getMessage().contains("yarn logs -applicationId " + SESSION), e.getMessage());
    } finally {
      SessionRpc.close(client);
    }
  }

  @Test
  void aMasterThatClosesConnectionsAsItStopsIsNamedAsUnreachable() throws Exception {
    try (java.net.ServerSocket stopping = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      Thread closer = new Thread(() -> {
        while (!stopping.isClosed()) {
          try {
            stopping.accept().close(); // as a server on its way down: the handshake ends at once
          } catch (IOException e) {
            return;
          }
        }
      });
      closer.setDaemon(true);
      closer.start();
      Configuration conf = new Configuration(false);
      conf.setInt("ipc.client.connect.max.retries", 0);
      ClientProtocol client = SessionRpc.proxy(ClientProtocol.class,
          new InetSocketAddress(stopping.getInetAddress(), stopping.getLocalPort()), conf,
          new SessionAccess(SESSION, "alice", secret, ORIGIN), UserGroupInformation.createRemoteUser("alice"));
      try {
        SessionUnreachableException e = assertThrows(SessionUnreachableException.class, client::getNewJobID);
        assertTrue(e.getMessage().startsWith("the master of Vivace session " + SESSION + " of user alice cannot be "
            + "reached"), e.getMessage());
      } finally {
        SessionRpc.close(client);
      }
    }
  }

  /**
   * Hadoop annotates ClientProtocol with the JobTracker's token selector and asks the class path's
   * SecurityInfo providers in the order of the jars: with Hadoop's AnnotatedSecurityInfo asked first
   * (as when Vivace's jar comes after Hadoop's), the session's token is still the one sent.
   */
  @Test
  void theSessionTokenIsSentWhateverTheOrderOfTheSecurityInfoProviders() throws Exception {
    start(new Configuration(false));
    SecurityUtil.setSecurityInfoProviders(new AnnotatedSecurityInfo());
    try {
      Configuration conf = new Configuration(false);
      assertEquals(DelegationTokenSelector.class, SecurityUtil.getTokenInfo(ClientProtocol.class, conf).value());
      assertEquals(SessionTokenSelector.class, SecurityUtil.getTokenInfo(SessionClientProtocol.class, conf).value());
      assertEquals(FixedClientProtocol.JOB, call(ClientProtocol.class, "alice",
          new SessionAccess(SESSION, "alice", secret, ORIGIN)));
    } finally {
      SecurityUtil.setSecurityInfoProviders();
    }
  }

  @Test
  void theConnectionIsEncryptedWhenTheClusterAsksForPrivacy() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("hadoop.rpc.protection", "privacy");
    start(conf);
    ClientProtocol client = SessionRpc.proxy(ClientProtocol.class, address, conf,
        new SessionAccess(SESSION, "alice", secret, ORIGIN), UserGroupInformation.createRemoteUser("alice"));
    try {
      assertEquals(FixedClientProtocol.JOB, client.getNewJobID());
      assertEquals("auth-conf", NegotiatedQop.of(client));
    } finally {
      SessionRpc.close(client);
    }
  }

  private void assertRefused(String user, SessionAccess access, String hadoopSays) {
    String expected = "not allowed to use Vivace session application_123_0001 of user alice: no valid session "
        + "secret for user " + user + " (the session's secret is readable only by its owner: "
        + "/user/alice/.vivace/sessions/application_123_0001.secret); refused: " + hadoopSays;
    for (Executable call : List.<Executable>of(() -> call(ClientProtocol.class, user, access),
        () -> call(ExecutorProtocol.class, user, access))) {
      SessionAccessException e = assertThrows(SessionAccessException.class, call);
      assertEquals(expected, e.getMessage());
      assertInstanceOf(RemoteException.class, e.getCause());
    }
    assertEquals(List.of(), clients.calls, "the session's code saw no call");
    assertEquals(List.of(), executors.calls, "the session's code saw no call");
  }

  private Object call(Class<?> protocol, String user, SessionAccess access) throws Exception {
    UserGroupInformation ugi = UserGroupInformation.createRemoteUser(user);
    if (protocol == ClientProtocol.class) {
      ClientProtocol client = SessionRpc.proxy(ClientProtocol.class, address, new Configuration(false), access, ugi);
      try {
        return client.getNewJobID();
      } finally {
        SessionRpc.close(client);
      }
    }
    ExecutorProtocol executor = SessionRpc.proxy(ExecutorProtocol.class, address, new Configuration(false), access,
        ugi);
    try {
      return executor.register(new ExecutorInfo("container_2", "host", 1, 2));
    } finally {
      SessionRpc.close(executor);
    }
  }
}
