package io.vivace.driver.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.client.SessionClient;
import io.vivace.cluster.rpc.SessionControlProtocol;
import io.vivace.cluster.rpc.SessionRpc;
import io.vivace.cluster.security.SessionAccess;
import io.vivace.cluster.security.SessionAccessException;
import io.vivace.cluster.security.SessionSecretStore;
import io.vivace.driver.session.SessionExamplesTest.WordCountTool;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.terasort.TeraGen;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Apache's example jobs on a Kerberos cluster ({@link SecureCluster}: a KDC, secure HDFS and YARN),
 * run by {@value KerberosRealm#USER1} logged in from its keytab, on a Vivace session that user
 * starts: teragen writes MapReduce on YARN's bytes on the same cluster, wordcount the embedded
 * engine's (MapReduce on YARN cannot shuffle on this cluster: {@link SecureClusterFixture}). The
 * session's containers reach HDFS with the delegation tokens its client obtained when it submitted
 * the session, each job's attempts with the tokens the job was submitted with. YARN renews the
 * session's tokens, so a session outlives their renewal interval; {@value KerberosRealm#USER2} is
 * refused the session, the refusals naming its owner.
 */
@Tag("kerberos")
@Tag("minicluster")
@Tag("slow")
@Timeout(value = 15, unit = TimeUnit.MINUTES)
@ExtendWith(SecureCluster.class)
class SecureSessionTest {

  private static final String SESSION = "secure";
  private static final Path HOME = new Path("/user/" + KerberosRealm.USER1);
  private static final Path TEXT = new Path(HOME, "text");
  private static SecureClusterFixture cluster;
  private static UserGroupInformation user1;
  private static FileSystem fs;

  @BeforeAll
  static void logIn() throws Exception {
    cluster = SecureCluster.cluster();
    user1 = cluster.realm().login(KerberosRealm.USER1);
    fs = as(user1, () -> FileSystem.get(cluster.yarnConf()));
    Random random = new Random(28);
    for (int f = 0; f < 3; f++) {
      try (FSDataOutputStream out = fs.create(new Path(TEXT, "part-" + f))) {
        out.write(words(random, 5000).getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  @AfterAll
  static void stopTheSession() throws Exception {
    if (user1 != null) {
      as(user1, () -> SessionClient.stop(cluster.sessionConf(SESSION), SESSION));
    }
  }

  private static <T> T as(UserGroupInformation user, PrivilegedExceptionAction<T> action) throws Exception {
    return user.doAs(action);
  }

  private static String words(Random random, int count) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < count; i++) {
      text.append("w").append(random.nextInt(300)).append(i % 12 == 11 ? '\n' : ' ');
    }
    return text.toString();
  }

  /** Runs {@code tool} as {@value KerberosRealm#USER1}; its output, committed and the user's. */
  private static Path run(Configuration conf, Tool tool, Path output, String... args) throws Exception {
    String[] all = java.util.Arrays.copyOf(args, args.length + 1);
    all[args.length] = output.toString();
    assertEquals(0, (int) as(user1, () -> ToolRunner.run(conf, tool, all)), tool.getClass().getSimpleName()
        + " into " + output + " failed");
    Outputs.assertCommitted(fs, output, tool.getClass().getSimpleName() + " into " + output);
    assertEquals(KerberosRealm.USER1, fs.getFileStatus(Outputs.visibleFiles(fs, output).get(0)).getOwner(),
        "the owner of " + output);
    return output;
  }

  private static Path teragen(Configuration conf, String folder) throws Exception {
    return run(conf, new TeraGen(), new Path(HOME, folder), "-D", "mapreduce.job.maps=3", "30000");
  }

  /** The user's alive session of this name. */
  private static ApplicationReport sessionNamed(Configuration conf, String name) throws Exception {
    List<ApplicationReport> sessions = as(user1, () -> SessionClient.list(conf)).stream()
        .filter(s -> SessionClient.sessionName(s).equals(name)).toList();
    assertEquals(1, sessions.size(), "the user's sessions named " + name + ": " + sessions);
    return sessions.get(0);
  }

  private static InetSocketAddress rpcAddress(ApplicationReport session) {
    return new InetSocketAddress(session.getHost(), session.getRpcPort());
  }

  /** The WARN and ERROR lines of the session master's log, for a failure's message. */
  private static List<String> mastersWarnings(String application) throws IOException {
    return mastersLog(application).stream().filter(line -> line.contains(" WARN ") || line.contains(" ERROR "))
        .toList();
  }

  /**
   * Waits for the session's master to have ended: its last log line (YARN reports the application
   * finished as soon as the master unregisters, before the master's last steps).
   */
  private static void awaitMasterEnded(String application) throws Exception {
    while (mastersLog(application).stream().noneMatch(line -> line.contains("The session ended"))) {
      Thread.sleep(200);
    }
  }

  private static List<String> mastersLog(String application) throws IOException {
    List<String> lines = new ArrayList<>();
    for (java.nio.file.Path log : SessionLogs.syslogs(cluster.yarn(), application)) {
      if (SessionLogs.isMasters(log)) {
        lines.addAll(java.nio.file.Files.readAllLines(log, StandardCharsets.ISO_8859_1));
      }
    }
    return lines;
  }

  @Test
  void theClusterRefusesAClientWithoutKerberosCredentials() throws Exception {
    UserGroupInformation claimed = UserGroupInformation.createRemoteUser(KerberosRealm.USER1);
    IOException refused = assertThrows(IOException.class, () -> as(claimed, () -> {
      try (FileSystem unauthenticated = FileSystem.newInstance(cluster.yarnConf())) {
        return unauthenticated.exists(TEXT);
      }
    }));
    assertTrue(String.valueOf(refused.getMessage()).contains("Client cannot authenticate via:[TOKEN, KERBEROS]"),
        "HDFS refuses a user name without Kerberos credentials: " + refused);
  }

  @Test
  void teragenOnASessionOfTheUserWritesMapReduceOnYarnsBytes() throws Exception {
    Path onYarn = teragen(cluster.yarnConf(), "teragen-yarn");
    Path onSession = teragen(cluster.sessionConf(SESSION), "teragen-session");
    Outputs.assertSameFiles(fs, onYarn, onSession, "teragen, session vs MapReduce on YARN");

    List<ApplicationReport> sessions = as(user1, () -> SessionClient.list(cluster.sessionConf(SESSION)));
    assertEquals(1, sessions.size(), "the user's sessions: " + sessions);
    assertEquals(KerberosRealm.USER1, sessions.get(0).getUser());
    assertEquals(SESSION, SessionClient.sessionName(sessions.get(0)));
  }

  @Test
  void wordcountOnASessionOfTheUserWritesTheEmbeddedEnginesBytes() throws Exception {
    WordCountTool onSession = new WordCountTool();
    Path embedded = run(cluster.embeddedConf(), new WordCountTool(), new Path(HOME, "wordcount-embedded"),
        TEXT.toString());
    Path session = run(cluster.sessionConf(SESSION), onSession, new Path(HOME, "wordcount-session"), TEXT.toString());
    Outputs.assertSameFiles(fs, embedded, session, "wordcount, session vs embedded");
    assertEquals(KerberosRealm.USER1, onSession.job().getStatus().getUsername());
    assertTrue(Outputs.lines(fs, session).size() > 100, "wordcount's counts: " + Outputs.listing(fs, session));
  }

  /**
   * {@value KerberosRealm#USER2}, logged in from its own keytab, cannot read the secret of
   * {@value KerberosRealm#USER1}'s session (HDFS knows who it is), and even with the secret in hand
   * the session refuses it as not its owner; both refusals name the owner, and the session runs on.
   */
  @Test
  void anotherUsersClientIsRefusedTheSessionNamingItsOwner() throws Exception {
    Configuration conf = cluster.sessionConf(SESSION);
    as(user1, () -> SessionClient.connect(conf)); // finds the session, or starts it
    ApplicationReport session = sessionNamed(conf, SESSION);
    String id = session.getApplicationId().toString();
    UserGroupInformation user2 = cluster.realm().login(KerberosRealm.USER2);
    String refusedTo = "not allowed to use Vivace session " + id + " of user " + KerberosRealm.USER1 + ": ";

    SessionAccessException unreadable = assertThrows(SessionAccessException.class,
        () -> as(user2, () -> SessionSecretStore.forCluster(conf).read(KerberosRealm.USER1, id)));
    assertTrue(unreadable.getMessage().startsWith(refusedTo + "user " + KerberosRealm.USER2
        + " may not read the session's secret "), unreadable.getMessage());

    SessionAccess leaked = as(user1, () -> SessionSecretStore.forCluster(conf).read(KerberosRealm.USER1, id));
    SessionControlProtocol control = as(user2, () -> SessionRpc.proxy(SessionControlProtocol.class,
        rpcAddress(session), conf, leaked, UserGroupInformation.getCurrentUser()));
    try {
      SessionAccessException refused = assertThrows(SessionAccessException.class,
          () -> control.stop("stopped by " + KerberosRealm.USER2));
      assertTrue(refused.getMessage().startsWith(refusedTo + "no valid session secret for user " + KerberosRealm.USER2),
          refused.getMessage());
      assertTrue(refused.getMessage().contains("user " + KerberosRealm.USER2 + " is not the session's owner"),
          refused.getMessage());
    } finally {
      SessionRpc.close(control);
    }
    assertEquals(YarnApplicationState.RUNNING, sessionNamed(conf, SESSION).getYarnApplicationState());
  }

  /**
   * A session runs on past the renewal interval of the tokens its client obtained when it started
   * it ({@link SecureCluster#TOKEN_RENEW_INTERVAL_MILLIS}), because YARN renews the tokens of its
   * master's launch context: after it, the session takes another job, and its master, asked to
   * end, still removes the session's secret from the owner's home with those tokens.
   */
  @Test
  void aSessionOutlivesTheRenewalIntervalOfItsTokens() throws Exception {
    String name = "renewed";
    Configuration conf = cluster.sessionConf(name);
    teragen(conf, "renewal-before");
    ApplicationReport session = sessionNamed(conf, name);
    String id = session.getApplicationId().toString();

    // unless renewed, the session's tokens are dead by now: its client obtained them before it submitted the
    // session, which YARN dates (the ResourceManager and NameNode share this host's clock)
    Thread.sleep(Math.max(0, session.getStartTime() + SecureCluster.TOKEN_RENEW_INTERVAL_MILLIS + 3_000
        - System.currentTimeMillis()));
    teragen(conf, "renewal-after");
    assertEquals(id, sessionNamed(conf, name).getApplicationId().toString(), "one session ran both jobs");

    Path secret = as(user1, () -> SessionSecretStore.forCluster(conf).path(KerberosRealm.USER1, id));
    assertTrue(fs.exists(secret), secret + " while the session runs");
    SessionAccess access = as(user1, () -> SessionSecretStore.forCluster(conf).read(KerberosRealm.USER1, id));
    SessionControlProtocol control = as(user1, () -> SessionRpc.proxy(SessionControlProtocol.class,
        rpcAddress(session), conf, access, UserGroupInformation.getCurrentUser()));
    try {
      control.stop("the renewal test is over"); // the master ends by itself: no client removes its files
    } finally {
      SessionRpc.close(control);
    }
    awaitMasterEnded(id);
    assertFalse(fs.exists(secret), "the master removed the session's secret " + secret + " with its tokens; its "
        + "warnings: " + mastersWarnings(id));
  }

  /**
   * Writes, once per map, what the attempt's user holds: the secret keys named {@code test.*} and
   * the HDFS delegation tokens, each as Hadoop encodes it.
   */
  public static final class CredentialsMapper extends Mapper<LongWritable, Text, Text, Text> {
    @Override
    protected void map(LongWritable key, Text value, Context context) {
      // what the attempt holds is written once, at its end
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      Credentials held = UserGroupInformation.getCurrentUser().getCredentials();
      List<String> secrets = new ArrayList<>();
      for (Text alias : held.getAllSecretKeys()) {
        if (alias.toString().startsWith("test.")) {
          secrets.add(alias + "=" + new String(held.getSecretKey(alias), StandardCharsets.UTF_8));
        }
      }
      Collections.sort(secrets);
      context.write(new Text(String.join(",", secrets)), new Text(String.join(",", hdfsTokens(held))));
    }
  }

  private static List<String> hdfsTokens(Credentials credentials) throws IOException {
    List<String> tokens = new ArrayList<>();
    for (Token<?> token : credentials.getAllTokens()) {
      if (token.getKind().equals(DelegationTokenIdentifier.HDFS_DELEGATION_KIND)) {
        tokens.add(token.encodeToUrlString());
      }
    }
    Collections.sort(tokens);
    return tokens;
  }

  private static Job credentialsJob(Configuration conf, String name) throws IOException {
    Job job = Job.getInstance(conf, name);
    job.setJarByClass(CredentialsMapper.class);
    job.setMapperClass(CredentialsMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.getCredentials().addSecretKey(new Text("test." + name), (name + "'s secret").getBytes(StandardCharsets.UTF_8));
    FileInputFormat.addInputPath(job, TEXT);
    FileOutputFormat.setOutputPath(job, new Path(HOME, name));
    return job;
  }

  /**
   * Two jobs at once on the session, each with a secret of its own in its credentials: every
   * attempt of each holds its job's secret and no other, and exactly the HDFS delegation tokens its
   * job's client obtained (not the session's own, not the other job's).
   */
  @Test
  void eachJobsAttemptsRunWithItsOwnCredentialsOnly() throws Exception {
    Configuration conf = cluster.sessionConf(SESSION);
    Job first = as(user1, () -> credentialsJob(conf, "credentials-a"));
    Job second = as(user1, () -> credentialsJob(conf, "credentials-b"));
    as(user1, () -> {
      first.submit();
      second.submit();
      return null;
    });
    for (Job job : List.of(first, second)) {
      assertTrue(as(user1, () -> job.waitForCompletion(false)), job.getJobName() + ": " + job.getStatus().getFailureInfo());
      List<String> tokens = hdfsTokens(job.getCredentials());
      assertFalse(tokens.isEmpty(), "the client obtained HDFS delegation tokens for " + job.getJobName());
      String expected = "test." + job.getJobName() + "=" + job.getJobName() + "'s secret\t" + String.join(",", tokens);
      List<String> lines = Outputs.lines(fs, new Path(HOME, job.getJobName()));
      assertEquals(3, lines.size(), job.getJobName() + "'s maps: " + lines);
      for (String line : lines) {
        assertEquals(expected, line, "what an attempt of " + job.getJobName() + " holds");
      }
    }
  }
}
