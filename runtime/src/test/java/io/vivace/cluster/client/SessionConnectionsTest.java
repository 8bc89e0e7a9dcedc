package io.vivace.cluster.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.rpc.ExecutorProtocol;
import io.vivace.cluster.rpc.SessionClientProtocol;
import io.vivace.cluster.rpc.SessionControlProtocol;
import io.vivace.cluster.rpc.SessionRpc;
import io.vivace.cluster.security.SessionAccess;
import io.vivace.cluster.security.SessionSecret;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sessions kept per JVM ({@link SessionConnections}), on real session RPC servers
 * ({@link SessionRpc#server}) with the YARN lookup played by the test: a kept session is used without
 * looking again while it answers, by every client that shares it, and looked for again once it has
 * ended or was stopped; a session an earlier JVM found is used by the next without looking on YARN
 * while it answers, and only from a file no other user may write.
 */
class SessionConnectionsTest {

  private final List<RPC.Server> servers = new ArrayList<>();
  private final SessionConnections connections = new SessionConnections();
  private final AtomicInteger lookups = new AtomicInteger();

  /** A session's RPC server whose jobs get ids of {@code cluster}, owned by this test's user. */
  private SessionConnections.Found session(String application, String cluster) throws Exception {
    SessionAccess access = new SessionAccess(application, UserGroupInformation.getCurrentUser().getShortUserName(),
        SessionSecret.generate(), "a test");
    RPC.Server server = SessionRpc.server(new Configuration(false), "127.0.0.1", 2, access, clients(cluster),
        refusing(ExecutorProtocol.class, ExecutorProtocol.versionID),
        refusing(SessionControlProtocol.class, SessionControlProtocol.versionID));
    server.start();
    servers.add(server);
    return new SessionConnections.Found(application, NetUtils.getConnectAddress(server), access);
  }

  @AfterEach
  void stopServers() {
    servers.forEach(RPC.Server::stop);
  }

  /** The jobs the test's sessions took, as {@code <cluster>:<job id>}. */
  private final List<String> submissions = new java.util.concurrent.CopyOnWriteArrayList<>();

  private SessionClientProtocol clients(String cluster) {
    return (SessionClientProtocol) Proxy.newProxyInstance(ClientProtocol.class.getClassLoader(),
        new Class<?>[] {SessionClientProtocol.class}, (proxy, method, args) -> switch (method.getName()) {
          case "getProtocolVersion" -> ClientProtocol.versionID;
          case "getProtocolSignature" -> new ProtocolSignature(ClientProtocol.versionID, null);
          case "getFilesystemName" -> "hdfs://nn:8020";
          case "getNewJobID" -> new JobID(cluster, 1);
          case "submitJob", "submitDescribedJob" -> {
            submissions.add(cluster + ":" + args[0]);
            yield new JobStatus((JobID) args[0], 0f, 0f, 0f, 0f, JobStatus.State.RUNNING,
                org.apache.hadoop.mapreduce.JobPriority.NORMAL, "alice", "a job", "job.xml", "");
          }
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  private static <T> T refusing(Class<T> protocol, long version) {
    return protocol.cast(Proxy.newProxyInstance(protocol.getClassLoader(), new Class<?>[] {protocol},
        (proxy, method, args) -> switch (method.getName()) {
          case "getProtocolVersion" -> version;
          case "getProtocolSignature" -> new ProtocolSignature(version, null);
          default -> throw new UnsupportedOperationException(method.getName());
        }));
  }

  private SessionConnections.Kept connect(String key, SessionConnections.Found found) throws Exception {
    Configuration conf = new Configuration(false);
    conf.setInt("ipc.client.connect.retry.interval", 10);
    return connections.connect(key, conf, () -> {
      lookups.incrementAndGet();
      return found;
    });
  }

  @Test
  void aKeptSessionIsUsedWithoutLookingAgainByEveryClientThatSharesIt() throws Exception {
    SessionConnections.Found first = session("application_1_0001", "one");
    SessionConnections.Kept a = connect("rm|alice|default", first);
    SessionConnections.Kept b = connect("rm|alice|default", first);
    assertEquals(1, lookups.get(), "looked for once");
    assertSame(a, b);
    SessionRpc.close(a.protocol()); // a client closes: the next one goes on over the same connection
    assertEquals(new JobID("one", 1), b.protocol().getNewJobID());
    connect("rm|alice|nightly", first);
    assertEquals(2, lookups.get(), "another session name is another session");
  }

  @Test
  void aSessionThatEndedIsLookedForAgain() throws Exception {
    SessionConnections.Found first = session("application_1_0001", "one");
    SessionConnections.Kept kept = connect("rm|alice|default", first);
    assertEquals(new JobID("one", 1), kept.protocol().getNewJobID());
    servers.get(0).stop();
    SessionConnections.Found second = session("application_1_0002", "two");
    SessionConnections.Kept again = connect("rm|alice|default", second);
    assertEquals(2, lookups.get());
    assertEquals("application_1_0002", again.session().application());
    assertEquals(new JobID("two", 1), again.protocol().getNewJobID());
    connect("rm|alice|default", second);
    assertEquals(2, lookups.get(), "the new session is kept in turn");
  }

  @Test
  void aCallBeforeTheSessionTookTheJobIsMadeAgainOnTheSessionFoundAnew() throws Exception {
    java.util.concurrent.atomic.AtomicReference<SessionConnections.Found> onYarn =
        new java.util.concurrent.atomic.AtomicReference<>(session("application_1_0001", "one"));
    ClientProtocol client = connections.client("rm|alice|default", quickConf(), () -> {
      lookups.incrementAndGet();
      return onYarn.get();
    }, SessionConnections.Kept::protocol);
    servers.get(0).stop(); // the session ends after the client checked it
    onYarn.set(session("application_1_0002", "two"));
    assertEquals(new JobID("two", 1), client.getNewJobID(), "the call made again on the new session");
    assertEquals(2, lookups.get());
  }

  /**
   * The race of a session killed through YARN: the client got its job id from the session's master
   * before the master heard of its end, and the master is gone when the job is submitted. The job
   * is started over, under that id, on the session YARN names now; once a session took the job, the
   * client stays with it.
   */
  @Test
  void aJobWhoseSessionEndedBeforeTakingItIsStartedOverOnTheSessionFoundAnew() throws Exception {
    java.util.concurrent.atomic.AtomicReference<SessionConnections.Found> onYarn =
        new java.util.concurrent.atomic.AtomicReference<>(session("application_1_0001", "one"));
    SessionClientProtocol client = connections.client("rm|alice|default", quickConf(), () -> {
      lookups.incrementAndGet();
      return onYarn.get();
    }, SessionConnections.Kept::protocol);
    JobID id = client.getNewJobID();
    assertEquals(new JobID("one", 1), id);
    servers.get(0).stop(); // killed through YARN, its master gone after it gave the id
    onYarn.set(session("application_1_0002", "two"));
    assertEquals(id, client.submitDescribedJob(id, new io.vivace.submit.JobDescription(), new Credentials()).getJobID());
    assertEquals(List.of("two:" + id), submissions, "the job started over on the session YARN names");
    assertEquals(2, lookups.get());
    servers.get(1).stop();
    onYarn.set(session("application_1_0003", "three"));
    org.junit.jupiter.api.Assertions.assertThrows(io.vivace.cluster.rpc.SessionUnreachableException.class,
        () -> client.getJobStatus(id), "a client whose job a session took stays with that session");
    assertEquals(2, lookups.get());
  }

  /** A submission that fails on the session YARN still names is not made there again: it may hold the job. */
  @Test
  void aSubmissionIsNotMadeTwiceOnTheSameSession() throws Exception {
    SessionConnections.Found only = session("application_1_0001", "one");
    SessionClientProtocol client = connections.client("rm|alice|default", quickConf(), () -> {
      lookups.incrementAndGet();
      return only;
    }, SessionConnections.Kept::protocol);
    JobID id = client.getNewJobID();
    servers.get(0).stop();
    org.junit.jupiter.api.Assertions.assertThrows(io.vivace.cluster.rpc.SessionUnreachableException.class,
        () -> client.submitJob(id, "hdfs://nn:8020/staging/" + id, new Credentials()));
    assertEquals(List.of(), submissions);
    assertEquals(2, lookups.get(), "YARN was asked which session is the user's now");
  }

  @Test
  void aSessionStoppedFromThisJvmIsForgotten() throws Exception {
    SessionConnections.Found first = session("application_1_0001", "one");
    connect("rm|alice|default", first);
    connect("rm|bob|default", session("application_1_0003", "three"));
    connections.forget("application_1_0001");
    assertFalse(connections.keeps("rm|alice|default"));
    assertTrue(connections.keeps("rm|bob|default"));
    connect("rm|alice|default", first);
    assertEquals(3, lookups.get());
  }

  /** A lookup that counts how often it looks on YARN (finding {@code onYarn}) and recalls the sessions the test made. */
  private final java.util.Map<String, SessionConnections.Found> made = new java.util.HashMap<>();
  private final AtomicInteger recalls = new AtomicInteger();

  private SessionConnections.Lookup lookup(SessionConnections.Found onYarn) {
    return new SessionConnections.Lookup() {
      @Override
      public SessionConnections.Found find() {
        lookups.incrementAndGet();
        return onYarn;
      }

      @Override
      public SessionConnections.Found recall(SessionAddresses.Remembered session) {
        recalls.incrementAndGet();
        SessionConnections.Found found = made.get(session.application());
        assertEquals(found.address(), session.address(), "remembered where it was");
        assertEquals(found.access().owner(), session.owner());
        return found;
      }
    };
  }

  private SessionConnections.Found madeSession(String application, String cluster) throws Exception {
    SessionConnections.Found found = session(application, cluster);
    made.put(application, found);
    return found;
  }

  private static Configuration quickConf() {
    Configuration conf = new Configuration(false);
    conf.setInt("ipc.client.connect.retry.interval", 10);
    return conf;
  }

  @Test
  void aNewJvmUsesTheSessionAnEarlierOneFoundWithoutLookingOnYarn(@TempDir Path home) throws Exception {
    SessionAddresses disk = new SessionAddresses(home.resolve("sessions"));
    SessionConnections.Found first = madeSession("application_1_0001", "one");
    new SessionConnections(disk).connect("rm|alice|default", quickConf(), lookup(first));
    assertEquals(1, lookups.get());
    assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
        Files.getPosixFilePermissions(disk.file("rm|alice|default")), "only its user reads the address");

    SessionConnections.Kept again = new SessionConnections(disk).connect("rm|alice|default", quickConf(),
        lookup(null));
    assertEquals(1, lookups.get(), "not looked for on YARN");
    assertEquals(1, recalls.get());
    assertEquals(new JobID("one", 1), again.protocol().getNewJobID());
    new SessionConnections(disk).connect("rm|alice|nightly", quickConf(), lookup(first));
    assertEquals(2, lookups.get(), "another key is another session");
  }

  @Test
  void aRememberedSessionThatEndedIsForgottenAndLookedForOnYarn(@TempDir Path home) throws Exception {
    SessionAddresses disk = new SessionAddresses(home.resolve("sessions"));
    new SessionConnections(disk).connect("rm|alice|default", quickConf(),
        lookup(madeSession("application_1_0001", "one")));
    servers.get(0).stop();
    SessionConnections.Found second = madeSession("application_1_0002", "two");
    SessionConnections.Kept found = new SessionConnections(disk).connect("rm|alice|default", quickConf(),
        lookup(second));
    assertEquals(1, recalls.get(), "the remembered session was tried");
    assertEquals(2, lookups.get(), "then YARN asked");
    assertEquals(new JobID("two", 1), found.protocol().getNewJobID());
    assertEquals("application_1_0002", disk.recall("rm|alice|default").orElseThrow().application(),
        "the session found in its place is remembered");
  }

  @Test
  void anAddressAnotherUserCouldHaveWrittenIsNotBelieved(@TempDir Path home) throws Exception {
    SessionAddresses disk = new SessionAddresses(home.resolve("sessions"));
    SessionConnections.Found first = madeSession("application_1_0001", "one");
    new SessionConnections(disk).connect("rm|alice|default", quickConf(), lookup(first));
    Files.setPosixFilePermissions(disk.file("rm|alice|default"), PosixFilePermissions.fromString("rw--w----"));
    new SessionConnections(disk).connect("rm|alice|default", quickConf(), lookup(first));
    assertEquals(0, recalls.get(), "a group-writable file is not read");
    assertEquals(2, lookups.get());
    Files.setPosixFilePermissions(disk.file("rm|alice|default"), PosixFilePermissions.fromString("rw-------"));
    Files.setPosixFilePermissions(home.resolve("sessions"), PosixFilePermissions.fromString("rwx-w--w-"));
    new SessionConnections(disk).connect("rm|alice|default", quickConf(), lookup(first));
    assertEquals(0, recalls.get(), "nor one in a folder others may write");
    assertEquals(3, lookups.get());
  }

  @Test
  void aSessionStoppedIsForgottenOnDiskToo(@TempDir Path home) throws Exception {
    SessionAddresses disk = new SessionAddresses(home.resolve("sessions"));
    SessionConnections connections = new SessionConnections(disk);
    connections.connect("rm|alice|default", quickConf(), lookup(madeSession("application_1_0001", "one")));
    connections.connect("rm|alice|nightly", quickConf(), lookup(madeSession("application_1_0002", "two")));
    connections.forget("application_1_0001");
    assertTrue(disk.recall("rm|alice|default").isEmpty());
    assertEquals("application_1_0002", disk.recall("rm|alice|nightly").orElseThrow().application());
  }

  @Test
  void keysTellClustersUsersAndNamesApart() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("yarn.resourcemanager.address", "rm1:8032");
    String key = SessionConnections.key(conf, "default");
    assertEquals(key, SessionConnections.key(new Configuration(conf), "default"));
    assertFalse(key.equals(SessionConnections.key(conf, "nightly")));
    Configuration other = new Configuration(conf);
    other.set("yarn.resourcemanager.address", "rm2:8032");
    assertFalse(key.equals(SessionConnections.key(other, "default")));
    String asBob = UserGroupInformation.createRemoteUser("bob")
        .doAs((java.security.PrivilegedExceptionAction<String>) () -> SessionConnections.key(conf, "default"));
    assertFalse(key.equals(asBob));
  }
}
