package io.vivace.cluster.session;

import io.vivace.cluster.ContainerDirs;
import io.vivace.cluster.ContainerHost;
import io.vivace.cluster.ContainerSecurity;
import io.vivace.cluster.ContainerSpec;
import io.vivace.cluster.SessionEndNote;
import io.vivace.cluster.SessionFiles;
import io.vivace.cluster.rpc.SessionRpc;
import io.vivace.cluster.security.SessionAccess;
import io.vivace.cluster.security.SessionCredentials;
import io.vivace.conf.VivaceConf;
import java.io.File;
import java.nio.ByteBuffer;
import java.security.PrivilegedExceptionAction;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application master of a Vivace session on YARN: it serves Hadoop's job client protocol to the
 * session owner's clients and runs their jobs, many at once and one after another, on executor JVMs
 * it keeps warm in YARN containers ({@link ExecutorContainers}, {@link Dispatcher}); it ends when it
 * has been idle for {@code vivace.session.idle.timeout.ms}, when its owner stops it, or when its
 * ResourceManager asks it to or cannot be reached for {@code vivace.session.rm.timeout.ms}
 * ({@link SessionMonitor}). Whatever happens on the way out, it is gone a minute later.
 */
public final class SessionMaster {

  private static final Logger LOG = LoggerFactory.getLogger(SessionMaster.class);
  private static final long MONITOR_INTERVAL_MILLIS = 100;
  private static final long SHUTDOWN_WAIT_MILLIS = 10_000;
  /** How long an ending session waits for its ended jobs' histories to reach the history folder. */
  private static final long HISTORY_WAIT_MILLIS = 10_000;
  /**
   * How long the ending session waits for the clients watching the jobs it killed to ask for their
   * status (Hadoop's Job polls every mapreduce.client.completion.pollinterval, 5 s by default; a
   * client that asked for none lately is not waited for: {@link SessionJobs#killAll}), then how long it
   * still answers their last calls (counters, events), when there were such clients.
   */
  private static final long CLIENT_WAIT_MILLIS = 20_000;
  private static final long CLIENT_LINGER_MILLIS = 3_000;
  private static final long SHUTDOWN_LIMIT_MILLIS = 60_000;
  /** How long after the grace an executor's word on an attempt asked to stop is waited for. */
  private static final long STOP_REPORT_MARGIN_NANOS = 500_000_000L;

  private SessionMaster() {
  }

  public static void main(String[] args) throws Exception {
    YarnConfiguration conf = new YarnConfiguration();
    conf.addResource(new Path(new File(ContainerSpec.CONF_FILE).getAbsoluteFile().toURI()));
    ContainerDirs.useOwnFolders(conf); // never the folders of an executor on this node
    ContainerSecurity.use(conf);
    ContainerId container = ContainerId.fromString(System.getenv(Environment.CONTAINER_ID.name()));
    ApplicationId application = container.getApplicationAttemptId().getApplicationId();
    String host = ContainerHost.name();
    SessionAccess session = SessionCredentials.ofCurrentUser();
    LOG.info("Vivace session " + application + " of " + session.owner() + " starts in " + container + " on " + host);

    ExecutorService steps = Executors.newFixedThreadPool(2, daemonThreads("vivace-session-step-"));
    Dispatcher dispatcher = new Dispatcher(steps, VivaceConf.getLong(conf, "vivace.session.locality.wait.ms"),
        VivaceConf.getLong(conf, "vivace.session.prefetch.below.ms"),
        VivaceConf.getInt(conf, "vivace.session.read.ahead.executors"), new Locality(conf));
    SessionJobs jobs = new SessionJobs(conf, dispatcher,
        application.getClusterTimestamp() + String.format("%04d", application.getId()),
        new File(conf.getTrimmedStrings(MRConfig.LOCAL_DIR)[0], "vivace-history"));
    ExecutorContainers containers = new ExecutorContainers(new ExecutorContainers.Settings(
        VivaceConf.getInt(conf, "vivace.session.executors.min"),
        VivaceConf.getInt(conf, "vivace.session.executors.max"),
        VivaceConf.getInt(conf, "vivace.session.executor.memory.mb"),
        VivaceConf.getInt(conf, "vivace.session.executor.vcores"),
        VivaceConf.getInt(conf, "vivace.session.executor.slots"),
        VivaceConf.getLong(conf, "vivace.session.executor.idle.timeout.ms") * 1_000_000L),
        ContainerSpec.decode(System.getenv(ContainerSpec.ENV)), executorTokens(session), dispatcher,
        new AsyncYarnClients(conf, VivaceConf.getLong(conf, "vivace.session.rm.timeout.ms")));
    long graceNanos = VivaceConf.getLong(conf, "vivace.task.kill.grace.ms") * 1_000_000L;
    SessionMonitor monitor = new SessionMonitor(jobs, dispatcher, containers, new SessionMonitor.Timeouts(
        VivaceConf.getLong(conf, "vivace.session.idle.timeout.ms") * 1_000_000L,
        VivaceConf.getLong(conf, "vivace.session.executor.silence.timeout.ms") * 1_000_000L,
        graceNanos + STOP_REPORT_MARGIN_NANOS,
        VivaceConf.getLong(conf, "vivace.session.wait.report.ms") * 1_000_000L));
    // the executors' and clients' calls, and as many more as may wait for their jobs' ends
    RPC.Server server = SessionRpc.server(conf, host, 64 + SessionJobs.AWAITS, session, jobs, dispatcher, monitor);
    server.start();
    int port = server.getListenerAddress().getPort();
    SessionWeb web = new SessionWeb(conf, host, jobs, dispatcher, "Vivace session " + application + " of "
        + session.owner());
    String trackingUrl = "http://" + host + ":" + web.port() + "/";
    jobs.trackAt(trackingUrl);
    LOG.info("Vivace session " + application + " of " + session.owner() + " serves clients and executors at "
        + host + ":" + port + ", its page at " + trackingUrl);
    containers.start(host, port, trackingUrl);

    String why;
    while ((why = monitor.tick(System.nanoTime())) == null) {
      Thread.sleep(MONITOR_INTERVAL_MILLIS);
    }
    LOG.info("The session ends: " + why);
    haltAfter(SHUTDOWN_LIMIT_MILLIS, "the session did not end within " + SHUTDOWN_LIMIT_MILLIS / 1000 + " s");
    List<String> killed = jobs.killAll("Job killed: the Vivace session is ending (" + why + ")");
    long deadline = System.nanoTime() + SHUTDOWN_WAIT_MILLIS * 1_000_000L;
    while (!jobs.idleFor(System.nanoTime(), 0) && System.nanoTime() < deadline) {
      monitor.tick(System.nanoTime()); // gives up on attempts that do not stop
      Thread.sleep(MONITOR_INTERVAL_MILLIS);
    }
    if (!killed.isEmpty()) { // clients polling their jobs see them end, and why
      long clientsDeadline = System.nanoTime() + CLIENT_WAIT_MILLIS * 1_000_000L;
      while (!jobs.killedJobsEndsSeen() && System.nanoTime() < clientsDeadline) {
        Thread.sleep(MONITOR_INTERVAL_MILLIS);
      }
      if (jobs.killedJobWatched()) {
        Thread.sleep(CLIENT_LINGER_MILLIS);
      }
    }
    if (!jobs.finishHistoryCopies(HISTORY_WAIT_MILLIS)) {
      LOG.warn("The histories of some ended jobs were not copied within " + HISTORY_WAIT_MILLIS / 1000 + " s");
    }
    dispatcher.shutDown();
    Thread.sleep(2 * MONITOR_INTERVAL_MILLIS); // the executors' waiting calls return with the news
    server.stop(); // first: a client that YARN tells the session ended finds no server half-way down
    containers.stop(FinalApplicationStatus.SUCCEEDED, SessionEndNote.of(why, killed));
    web.stop();
    if (containers.resourceManagerLost() == null) {
      forgetSession(conf, session);
    }
    steps.shutdownNow();
    steps.awaitTermination(1, TimeUnit.SECONDS);
    LOG.info("The session ended");
    System.exit(0);
  }

  /** Halts the JVM after {@code millis} if it has not exited by then (a cluster gone can hang its clients). */
  private static void haltAfter(long millis, String why) {
    Thread watchdog = new Thread(() -> {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        return;
      }
      LOG.error(why + "; halting");
      Runtime.getRuntime().halt(1);
    }, "vivace-session-shutdown-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
  }

  /** Removes the session's secret and files from the owner's home (as the owner, with the session's tokens). */
  private static void forgetSession(YarnConfiguration conf, SessionAccess session) {
    try {
      UserGroupInformation owner = UserGroupInformation.createRemoteUser(session.owner());
      owner.addCredentials(UserGroupInformation.getLoginUser().getCredentials());
      owner.doAs((PrivilegedExceptionAction<Void>) () -> {
        SessionFiles.forget(conf, session.owner(), session.sessionId());
        return null;
      });
    } catch (Exception e) {
      LOG.warn("could not remove the session's files from the home of " + session.owner() + ": " + e);
    }
  }

  /** The session's credentials without the master's own ResourceManager token, for its executors. */
  private static ByteBuffer executorTokens(SessionAccess session) throws Exception {
    Credentials credentials = new Credentials(UserGroupInformation.getCurrentUser().getCredentials());
    for (Iterator<Token<?>> it = credentials.getAllTokens().iterator(); it.hasNext(); ) {
      if (it.next().getKind().equals(AMRMTokenIdentifier.KIND_NAME)) {
        it.remove();
      }
    }
    return SessionCredentials.launchTokens(credentials, session);
  }

  static java.util.concurrent.ThreadFactory daemonThreads(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + n.getAndIncrement());
      thread.setDaemon(true);
      return thread;
    };
  }
}
