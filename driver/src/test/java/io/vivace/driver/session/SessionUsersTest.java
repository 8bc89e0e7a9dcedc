package io.vivace.driver.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.client.SessionClient;
import io.vivace.cluster.security.SessionAccessException;
import io.vivace.workloads.bench.LatencyBench;
import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two users on one cluster: the test's user and {@value #OTHER}, whose home the administrator makes
 * after the first user's session has made its folders. Each user's client looks for a
 * session among its own user's only, so both get sessions of their own, and their jobs run at once,
 * each on its user's session and as its user. A user who names the other's session to stop it is
 * refused, the error naming the session's owner, and the session runs on.
 */
@Tag("minicluster")
@Timeout(900)
@ExtendWith(SharedCluster.class)
class SessionUsersTest {

  private static final String SESSION = "users";
  private static final String OTHER = "bob";
  private static ClusterFixture cluster;

  @BeforeAll
  static void useTheCluster() {
    cluster = SharedCluster.cluster();
  }

  /** As HDFS's superuser, an administrator making a user's home (after a session of the first user made its own). */
  private static void makeHome(String user) throws IOException {
    FileSystem admin = cluster.dfs().getFileSystem();
    Path home = new Path("/user/" + user);
    admin.mkdirs(home);
    admin.setOwner(home, user, "users");
  }

  private static <T> T as(UserGroupInformation user, PrivilegedExceptionAction<T> action) throws Exception {
    return user.doAs(action);
  }

  /** Runs an empty job; returns its user and the cluster id of the session that ran it. */
  private static String[] emptyJobOn(Configuration conf) throws Exception {
    try (Job job = LatencyBench.emptyJob(conf)) {
      assertTrue(job.waitForCompletion(false), job.getStatus().getFailureInfo());
      return new String[] {job.getStatus().getUsername(), job.getJobID().getJtIdentifier()};
    }
  }

  private static ApplicationReport sessionOf(Configuration conf) throws IOException {
    List<ApplicationReport> sessions = SessionClient.list(conf).stream()
        .filter(s -> SessionClient.sessionName(s).equals(SESSION)).toList();
    assertEquals(1, sessions.size(), "one session named " + SESSION + " of the user: " + sessions);
    return sessions.get(0);
  }

  @Test
  void eachUserGetsASessionOfItsOwnAndIsRefusedTheOthers() throws Exception {
    Configuration conf = cluster.sessionConf(SESSION);
    String me = UserGroupInformation.getCurrentUser().getShortUserName();
    UserGroupInformation other = UserGroupInformation.createRemoteUser(OTHER);
    ExecutorService clients = Executors.newFixedThreadPool(2);
    try {
      String firstSession = emptyJobOn(new Configuration(conf))[1];
      makeHome(OTHER);
      Future<String[]> mine = clients.submit(() -> emptyJobOn(new Configuration(conf)));
      Future<String[]> theirs = clients.submit(() -> as(other, () -> emptyJobOn(new Configuration(conf))));
      String[] myJob = mine.get(10, TimeUnit.MINUTES);
      String[] theirJob = theirs.get(10, TimeUnit.MINUTES);
      assertEquals(me, myJob[0]);
      assertEquals(OTHER, theirJob[0]);
      assertEquals(firstSession, myJob[1], "the user's jobs run on the user's session");
      assertNotEquals(myJob[1], theirJob[1], "the two users' jobs ran on two sessions");

      ApplicationReport mySession = sessionOf(conf);
      ApplicationReport theirSession = as(other, () -> sessionOf(conf));
      assertEquals(me, mySession.getUser());
      assertEquals(OTHER, theirSession.getUser());
      assertNotEquals(mySession.getApplicationId(), theirSession.getApplicationId());

      String myId = mySession.getApplicationId().toString();
      SessionAccessException refusal = assertThrows(SessionAccessException.class,
          () -> as(other, () -> SessionClient.stop(conf, myId)));
      assertEquals("not allowed to use Vivace session " + myId + " of user " + me + ": only its owner may "
          + "stop it, and user " + OTHER + " is not " + me, refusal.getMessage());
      assertFalse(as(other, () -> SessionClient.stop(conf, "no-such-session")), "a name is only ever the user's own");
      assertEquals(YarnApplicationState.RUNNING, sessionOf(conf).getYarnApplicationState(), "the session runs on");
      assertEquals(myJob[1], emptyJobOn(new Configuration(conf))[1], "and takes its owner's jobs");
    } finally {
      clients.shutdownNow();
      SessionClient.stop(conf, SESSION);
      as(other, () -> SessionClient.stop(conf, SESSION));
    }
  }
}
