package io.vivace.cluster.client;

import io.vivace.cluster.ContainerSpec;
import io.vivace.cluster.SessionFiles;
import io.vivace.cluster.rpc.SessionClientProtocol;
import io.vivace.cluster.rpc.SessionControlProtocol;
import io.vivace.cluster.rpc.SessionRpc;
import io.vivace.cluster.security.SessionAccess;
import io.vivace.cluster.security.SessionCredentials;
import io.vivace.cluster.security.SessionAccessException;
import io.vivace.cluster.security.SessionSecret;
import io.vivace.cluster.security.SessionSecretStore;
import io.vivace.conf.VivaceConf;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.LocalResourceType;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.client.api.YarnClientApplication;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job client's way to a Vivace session on YARN ({@code vivace.master=yarn}): finds the calling
 * user's running session named {@code vivace.session.name}, or starts one (its application master,
 * {@code io.vivace.cluster.session.SessionMaster}, in a YARN container with Vivace's jars as local
 * resources), and returns Hadoop's job client protocol on it. Also lists and stops sessions
 * ({@code ./vivace session}).
 */
public final class SessionClient {

  private static final Logger LOG = LoggerFactory.getLogger(SessionClient.class);
  /** The YARN application type of sessions. */
  public static final String APPLICATION_TYPE = "VIVACE";
  private static final String NAME_PREFIX = "vivace-session ";
  private static final long START_LOCK_POLL_MILLIS = 200;
  /** How long {@code session stop} waits for the session to end by itself before YARN kills it. */
  private static final long STOP_WAIT_MILLIS = 90_000;
  private static final Set<YarnApplicationState> ALIVE = EnumSet.of(YarnApplicationState.NEW,
      YarnApplicationState.NEW_SAVING, YarnApplicationState.SUBMITTED, YarnApplicationState.ACCEPTED,
      YarnApplicationState.RUNNING);

  private SessionClient() {
  }

  /**
   * Hadoop's job client protocol on the user's session, started when there is none. The session
   * found is kept for this JVM's next clients with its connection ({@link SessionConnections}), so
   * that a warm client asks YARN nothing per job while its session answers, and its address for the
   * user's next JVMs ({@link SessionAddresses}), so that a cold client does not either. A job jar that is a
   * local file is pointed at its copy on the cluster's file system, uploaded once ({@link JobJars}),
   * so that Hadoop's job client does not stage it with every job; a job that then needs nothing
   * staged is sent to the session as its description, with no write to the cluster's file system
   * ({@link DescribedSubmissions}); a waiting client is told its job's end by the session
   * ({@link PushedJobEnds}) instead of polling for it.
   */
  public static ClientProtocol connect(Configuration conf) throws IOException {
    String name = VivaceConf.get(conf, "vivace.session.name");
    SessionClientProtocol client = SessionConnections.JVM.client(SessionConnections.key(conf, name), conf,
        lookup(conf, name), session -> EndedSessionJobs.around(session.protocol(), conf,
            ApplicationId.fromString(session.session().application())));
    try {
      JobJars.JVM.share(conf);
    } catch (IOException e) {
      LOG.warn("The job jar is staged with the job instead: " + e.getMessage());
    }
    return DescribedSubmissions.around(WaitingNotes.around(PushedJobEnds.around(client)), conf);
  }

  /**
   * Forgets the sessions this JVM's clients found and their connections: the next job finds its
   * session as a new JVM's would (at the address an earlier client remembered, once it answers, else
   * on YARN), and reads its secret again.
   */
  public static void forgetSessions() {
    SessionConnections.JVM.forgetAll();
  }

  /** Finds the user's session named {@code name} on YARN, or as an earlier client found it. */
  private static SessionConnections.Lookup lookup(Configuration conf, String name) {
    return new SessionConnections.Lookup() {
      @Override
      public SessionConnections.Found find() throws IOException {
        return lookUp(conf, name);
      }

      @Override
      public SessionConnections.Found recall(SessionAddresses.Remembered session) throws IOException {
        return new SessionConnections.Found(session.application(), session.address(),
            SessionSecretStore.forCluster(conf).read(session.owner(), session.application()));
      }
    };
  }

  /** The user's running session named {@code name}, started when there is none, and its secret. */
  private static SessionConnections.Found lookUp(Configuration conf, String name) throws IOException {
    YarnClient yarn = yarn(conf);
    try {
      ApplicationReport session = find(yarn, name);
      if (session == null) {
        session = startOrJoin(yarn, conf, name);
      } else if (session.getYarnApplicationState() != YarnApplicationState.RUNNING) {
        session = awaitRunning(yarn, session.getApplicationId(), conf);
      }
      InetSocketAddress address = new InetSocketAddress(session.getHost(), session.getRpcPort());
      SessionAccess access = SessionSecretStore.forCluster(conf).read(session.getUser(),
          session.getApplicationId().toString());
      return new SessionConnections.Found(session.getApplicationId().toString(), address, access);
    } finally {
      yarn.stop();
    }
  }

  /** The sessions of the calling user that are alive. */
  public static List<ApplicationReport> list(Configuration conf) throws IOException {
    YarnClient yarn = yarn(conf);
    try {
      return alive(yarn);
    } finally {
      yarn.stop();
    }
  }

  /**
   * Starts a session named {@code name} and waits until it runs. Refused when the user has a session
   * of that name alive or being started: clients find a session by its name, and would go on using
   * the older one, not this one with its settings.
   */
  public static ApplicationReport start(Configuration conf, String name) throws IOException {
    YarnClient yarn = yarn(conf);
    try {
      StartLock lock = StartLock.of(conf, name);
      if (!lock.tryTake(VivaceConf.getLong(conf, "vivace.session.start.timeout.ms"))) {
        throw new IOException("Vivace session " + name + " is being started by " + lock.heldBy());
      }
      ApplicationId own;
      try {
        ApplicationReport running = find(yarn, name);
        if (running != null) {
          throw new IOException("Vivace session " + name + " runs already (" + running.getApplicationId() + ", "
              + running.getYarnApplicationState() + "): stop it first (vivace session stop " + name
              + ") or start a session of another name");
        }
        own = submit(yarn, conf, name);
      } finally {
        lock.release();
      }
      return awaitRunning(yarn, own, conf);
    } finally {
      yarn.stop();
    }
  }

  /**
   * Stops the user's session of this name or application id; false when there is none. The
   * session is asked to end through its RPC, so that it kills its running jobs (aborting their
   * output, telling their clients why) and gives its containers back; a session that cannot be
   * asked, or does not end within a minute and a half, is killed through YARN.
   */
  public static boolean stop(Configuration conf, String nameOrId) throws IOException {
    YarnClient yarn = yarn(conf);
    try {
      for (ApplicationReport session : alive(yarn)) {
        if (session.getApplicationId().toString().equals(nameOrId) || sessionName(session).equals(nameOrId)) {
          ApplicationId id = session.getApplicationId();
          String user = UserGroupInformation.getCurrentUser().getShortUserName();
          if (!askToEnd(conf, session, "stopped by " + user + " (vivace session stop)") || !awaitEnd(yarn, id)) {
            yarn.killApplication(id);
            LOG.info("Killed Vivace session " + id + " through YARN");
          }
          SessionFiles.forget(conf, session.getUser(), id.toString());
          SessionConnections.JVM.forget(id.toString());
          LOG.info("Stopped Vivace session " + id + " (" + sessionName(session) + ")");
          return true;
        }
      }
      refuseIfAnotherUsersSession(yarn, nameOrId);
      return false;
    } catch (YarnException e) {
      throw new IOException(e);
    } finally {
      yarn.stop();
    }
  }

  /**
   * Throws, naming its owner, when {@code nameOrId} is the application id of another user's alive
   * session: only its owner may stop it (the owner's sessions were looked for first).
   */
  private static void refuseIfAnotherUsersSession(YarnClient yarn, String nameOrId) throws IOException, YarnException {
    ApplicationId id;
    try {
      id = ApplicationId.fromString(nameOrId);
    } catch (IllegalArgumentException e) {
      return; // a name: names are the user's own
    }
    ApplicationReport report;
    try {
      report = yarn.getApplicationReport(id);
    } catch (org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException e) {
      return;
    }
    String user = UserGroupInformation.getCurrentUser().getShortUserName();
    if (APPLICATION_TYPE.equals(report.getApplicationType()) && report.getName().startsWith(NAME_PREFIX)
        && ALIVE.contains(report.getYarnApplicationState()) && !report.getUser().equals(user)) {
      throw new SessionAccessException(id.toString(), report.getUser(),
          "only its owner may stop it, and user " + user + " is not " + report.getUser());
    }
  }

  /** Asks a running session to end; false when it cannot be asked (not running yet, unreachable). */
  private static boolean askToEnd(Configuration conf, ApplicationReport session, String reason) {
    if (session.getYarnApplicationState() != YarnApplicationState.RUNNING || session.getRpcPort() <= 0) {
      return false;
    }
    SessionControlProtocol control = null;
    try {
      SessionAccess access = SessionSecretStore.forCluster(conf).read(session.getUser(),
          session.getApplicationId().toString());
      control = SessionRpc.proxy(SessionControlProtocol.class,
          new InetSocketAddress(session.getHost(), session.getRpcPort()), conf, access,
          UserGroupInformation.getCurrentUser());
      String[] running = control.stop(reason);
      if (running.length > 0) {
        LOG.warn("Vivace session " + session.getApplicationId() + " was running " + running.length + " jobs: "
            + String.join(", ", running) + "; they are killed, their output aborted");
      }
      return true;
    } catch (IOException e) {
      LOG.warn("Could not ask Vivace session " + session.getApplicationId() + " to end (" + e.getMessage()
          + "); it is killed through YARN");
      return false;
    } finally {
      if (control != null) {
        SessionRpc.close(control);
      }
    }
  }

  /** Waits for a session asked to end to be over; false when it has not after {@value #STOP_WAIT_MILLIS} ms. */
  private static boolean awaitEnd(YarnClient yarn, ApplicationId id) throws IOException, YarnException {
    long deadline = System.nanoTime() + STOP_WAIT_MILLIS * 1_000_000L;
    while (System.nanoTime() < deadline) {
      if (!ALIVE.contains(yarn.getApplicationReport(id).getYarnApplicationState())) {
        return true;
      }
      sleep(START_LOCK_POLL_MILLIS, id.toString());
    }
    return false;
  }

  /** The session name of a session's application report. */
  public static String sessionName(ApplicationReport report) {
    return report.getName().startsWith(NAME_PREFIX) ? report.getName().substring(NAME_PREFIX.length())
        : report.getName();
  }

  /** A started client of the cluster's ResourceManager; the caller stops it. */
  static YarnClient yarn(Configuration conf) {
    YarnClient yarn = YarnClient.createYarnClient();
    yarn.init(new YarnConfiguration(conf));
    yarn.start();
    return yarn;
  }

  private static List<ApplicationReport> alive(YarnClient yarn) throws IOException {
    String user = UserGroupInformation.getCurrentUser().getShortUserName();
    List<ApplicationReport> sessions = new ArrayList<>();
    try {
      for (ApplicationReport report : yarn.getApplications(Set.of(APPLICATION_TYPE), EnumSet.copyOf(ALIVE))) {
        if (report.getUser().equals(user) && report.getName().startsWith(NAME_PREFIX)) {
          sessions.add(report);
        }
      }
    } catch (YarnException e) {
      throw new IOException("cannot list the Vivace sessions on YARN: " + e.getMessage(), e);
    }
    return sessions;
  }

  /**
   * The user's alive session of this name submitted first (then the lowest id), so that clients
   * that look at the same time agree on one.
   */
  private static ApplicationReport find(YarnClient yarn, String name) throws IOException {
    return alive(yarn).stream()
        .filter(session -> sessionName(session).equals(name))
        .min(Comparator.comparingLong(ApplicationReport::getSubmitTime)
            .thenComparing(ApplicationReport::getApplicationId))
        .orElse(null);
  }

  /**
   * Starts a session for a job when none runs, or joins the one another client is starting. Clients
   * take turns through a lock file in the owner's sessions folder ({@link StartLock}, created only
   * if absent, which HDFS does atomically): the client holding it looks once more and, finding
   * none, submits the session; the others wait for the lock to go and then find that session. So
   * clients starting at once end up with one session, and no other is ever submitted.
   */
  private static ApplicationReport startOrJoin(YarnClient yarn, Configuration conf, String name)
      throws IOException {
    StartLock lock = StartLock.of(conf, name);
    long timeoutMillis = VivaceConf.getLong(conf, "vivace.session.start.timeout.ms");
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
    boolean told = false;
    while (true) {
      ApplicationReport found = find(yarn, name);
      if (found != null) {
        return awaitRunning(yarn, found.getApplicationId(), conf);
      }
      if (lock.tryTake(timeoutMillis)) {
        ApplicationId own;
        try {
          found = find(yarn, name); // started by the client that held the lock before
          if (found != null) {
            return awaitRunning(yarn, found.getApplicationId(), conf);
          }
          SessionFiles.sweep(yarn, conf, timeoutMillis);
          own = submit(yarn, conf, name);
        } finally {
          lock.release();
        }
        return awaitRunning(yarn, own, conf);
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("Vivace session " + name + " is being started by " + lock.heldBy()
            + " and did not start within vivace.session.start.timeout.ms");
      }
      if (!told) {
        LOG.info("Another client is starting Vivace session " + name + " (" + lock.holder() + "): waiting for it");
        told = true;
      }
      sleep(START_LOCK_POLL_MILLIS, name);
    }
  }

  private static void sleep(long millis, String name) throws InterruptedIOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for Vivace session " + name + " to start");
    }
  }

  private static ApplicationId submit(YarnClient yarn, Configuration conf, String name) throws IOException {
    try {
      YarnClientApplication application = yarn.createApplication();
      ApplicationSubmissionContext context = application.getApplicationSubmissionContext();
      ApplicationId id = context.getApplicationId();
      context.setApplicationName(NAME_PREFIX + name);
      context.setApplicationType(APPLICATION_TYPE);
      context.setQueue(conf.get("mapreduce.job.queuename", "default"));
      context.setMaxAppAttempts(1);
      int memoryMb = VivaceConf.getInt(conf, "vivace.session.am.memory.mb");
      context.setResource(Resource.newInstance(memoryMb, 1));
      ContainerSpec spec = containerSpec(conf, id);
      String owner = UserGroupInformation.getCurrentUser().getShortUserName();
      SessionSecretStore secrets = SessionSecretStore.forCluster(conf);
      SessionAccess access = new SessionAccess(id.toString(), owner, SessionSecret.generate(),
          SessionSecretStore.origin(secrets.path(owner, id.toString())));
      secrets.write(access);
      context.setAMContainerSpec(spec.launchContext("io.vivace.cluster.session.SessionMaster", List.of(),
          (int) (memoryMb * 0.8), Map.of(),
          SessionCredentials.launchTokens(SessionDelegationTokens.obtain(conf), access)));
      LOG.info("Starting Vivace session " + id + " (" + name + ")");
      yarn.submitApplication(context);
      return id;
    } catch (YarnException e) {
      throw new IOException("cannot start a Vivace session on YARN: " + e.getMessage(), e);
    }
  }

  private static ApplicationReport awaitRunning(YarnClient yarn, ApplicationId id, Configuration conf)
      throws IOException {
    long deadline = System.nanoTime() + VivaceConf.getLong(conf, "vivace.session.start.timeout.ms") * 1_000_000L;
    try {
      while (true) {
        ApplicationReport report = yarn.getApplicationReport(id);
        YarnApplicationState state = report.getYarnApplicationState();
        if (state == YarnApplicationState.RUNNING && report.getRpcPort() > 0) {
          return report;
        }
        if (!ALIVE.contains(state)) {
          throw new IOException("Vivace session " + id + " ended as " + state + " before it could be used: "
              + report.getDiagnostics() + " (its logs: yarn logs -applicationId " + id + ")");
        }
        if (System.nanoTime() > deadline) {
          throw new IOException("Vivace session " + id + " did not start within vivace.session.start.timeout.ms; "
              + "it is " + state + ": " + report.getDiagnostics());
        }
        Thread.sleep(50);
      }
    } catch (YarnException e) {
      throw new IOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for Vivace session " + id);
    }
  }

  /** {@code vivace.session.log.level}, a word (it goes on the containers' command lines). */
  private static String logLevel(Configuration conf) {
    String level = VivaceConf.get(conf, "vivace.session.log.level").trim();
    if (!level.matches("[A-Za-z]+")) {
      throw new IllegalArgumentException("vivace.session.log.level=" + level + " is not a log level (TRACE, DEBUG, INFO,"
          + " WARN, ERROR)");
    }
    return level.toUpperCase(java.util.Locale.ROOT);
  }

  /**
   * What the session's containers run with: its configuration file and Vivace's jars on the
   * cluster's file system, the class path, the JVM's module options. On a mini-cluster (all on this
   * host) the containers take this JVM's class path as it is, and its Kerberos configuration file.
   */
  private static ContainerSpec containerSpec(Configuration conf, ApplicationId id) throws IOException {
    FileSystem fs = FileSystem.get(conf);
    Path confFile = new Path(SessionFiles.folder(conf, id.toString()), ContainerSpec.CONF_FILE);
    try (OutputStream out = SessionFiles.createPrivate(fs, confFile)) {
      conf.writeXml(out);
    }
    Map<String, LocalResource> resources = new LinkedHashMap<>();
    resources.put(ContainerSpec.CONF_FILE, ContainerSpec.resource(fs, confFile, LocalResourceType.FILE));
    String classPath;
    if (conf.getBoolean(YarnConfiguration.IS_MINI_YARN_CLUSTER, false)) {
      classPath = System.getProperty("java.class.path");
    } else {
      Path lib = SessionLibrary.upload(conf, fs);
      resources.put(SessionLibrary.LINK, ContainerSpec.resource(fs, lib, LocalResourceType.ARCHIVE));
      // then the node's Hadoop configuration folder, as MapReduce's containers have it: where TLS for the
      // shuffle finds the cluster's ssl-server.xml and ssl-client.xml
      classPath = SessionLibrary.LINK + "/*" + ApplicationConstants.CLASS_PATH_SEPARATOR
          + ApplicationConstants.Environment.HADOOP_CONF_DIR.$$();
    }
    List<String> options = new ArrayList<>();
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens")) {
        options.add(arg);
      }
    }
    options.add("-Djava.net.preferIPv4Stack=true");
    options.add("-Dvivace.log.level=" + logLevel(conf));
    String krb5Conf = System.getProperty("java.security.krb5.conf");
    if (conf.getBoolean(YarnConfiguration.IS_MINI_YARN_CLUSTER, false) && krb5Conf != null) {
      options.add("-Djava.security.krb5.conf=" + krb5Conf); // as the class path: the containers share this host
    }
    String userOptions = VivaceConf.get(conf, "vivace.session.java.opts");
    if (userOptions != null && !userOptions.isBlank()) {
      options.addAll(List.of(userOptions.trim().split("\\s+")));
    }
    return new ContainerSpec(resources, classPath, options);
  }
}
