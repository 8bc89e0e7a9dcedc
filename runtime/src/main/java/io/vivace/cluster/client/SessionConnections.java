package io.vivace.cluster.client;

import io.vivace.cluster.rpc.ProxyObjectMethods;
import io.vivace.cluster.rpc.SessionClientProtocol;
import io.vivace.cluster.rpc.SessionRpc;
import io.vivace.cluster.rpc.SessionUnreachableException;
import io.vivace.cluster.security.SessionAccess;
import java.io.Closeable;
import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sessions this JVM's job clients have found, each with its connection, kept for the JVM's
 * next jobs: a warm client reaches its session without asking YARN where it is, reading its secret
 * again or connecting again. Before a kept session is used, one cheap call on a connection of its own
 * that never retries checks that it still answers; a session that has ended (stopped, idle, killed, its host gone) or refuses the caller is forgotten,
 * and the session is looked for (or started) the usual way.
 *
 * <p>Sessions are kept by ResourceManager, file system (where their secrets are), calling user and
 * session name. A kept session's connection is shared by the clients that use it; closing a client
 * leaves it open. Connections to sessions found gone are not closed either (their sockets are), as
 * a client may still be reading its job's end through one ({@link EndedSessionJobs}).
 */
final class SessionConnections {

  private static final Logger LOG = LoggerFactory.getLogger(SessionConnections.class);
  /** How long the check that a session answers waits to connect: a host that is gone does not answer. */
  private static final int CHECK_CONNECT_TIMEOUT_MILLIS = 2000;

  /** This JVM's, remembering the sessions it finds for the user's next JVMs. */
  static final SessionConnections JVM = new SessionConnections(SessionAddresses.inUserHome());

  /** A session found on YARN: its application id, its master's RPC address, what it takes to use it. */
  record Found(String application, InetSocketAddress address, SessionAccess access) {
  }

  /** How a session is found (or started) when none is kept for a key, or the kept one is gone. */
  interface Lookup {
    Found find() throws IOException;

    /**
     * The session an earlier JVM found, with what it takes to use it (its secret read as after
     * {@link #find}); null where the lookup does not use remembered sessions.
     */
    default Found recall(SessionAddresses.Remembered session) throws IOException {
      return null;
    }
  }

  /** A session kept with its connection (shared: closing it does nothing) and its check. */
  record Kept(Found session, SessionClientProtocol protocol, ClientProtocol check) {
  }

  static {
    new YarnConfiguration(); // adds yarn-default.xml and yarn-site.xml to every configuration's defaults
  }

  private final Map<String, Kept> kept = new ConcurrentHashMap<>();
  private final SessionAddresses addresses;

  /** Keeps sessions for this JVM only. */
  SessionConnections() {
    this(SessionAddresses.NONE);
  }

  SessionConnections(SessionAddresses addresses) {
    this.addresses = addresses;
  }

  /**
   * The session kept for {@code key} if it still answers, otherwise the one {@code lookup} finds,
   * connected to as the current user with {@code conf}'s RPC settings and kept.
   */
  Kept connect(String key, Configuration conf, Lookup lookup) throws IOException {
    Kept session = kept.get(key);
    if (session != null) {
      if (answers(session)) {
        return session;
      }
      kept.remove(key, session);
    }
    Kept recalled = recalled(key, conf, lookup);
    if (recalled != null) {
      kept.put(key, recalled);
      return recalled;
    }
    Found found = lookup.find();
    Kept connected = open(found, conf);
    kept.put(key, connected);
    addresses.remember(key, new SessionAddresses.Remembered(found.application(), found.access().owner(),
        found.address()));
    return connected;
  }

  /** The session an earlier JVM found for {@code key}, connected to, if it still answers; else null, and forgotten. */
  private Kept recalled(String key, Configuration conf, Lookup lookup) {
    SessionAddresses.Remembered remembered = addresses.recall(key).orElse(null);
    if (remembered == null) {
      return null;
    }
    try {
      Found found = lookup.recall(remembered);
      if (found == null) {
        return null;
      }
      Kept connected = open(found, conf);
      if (answers(connected)) {
        LOG.info("Using " + found.access() + " at " + found.address() + ", as remembered by an earlier client");
        return connected;
      }
    } catch (IOException e) {
      LOG.info("The session remembered for this client, " + remembered.application() + " at "
          + remembered.address() + ", cannot be used (" + e.getMessage() + "); looking for the session again");
    }
    addresses.forget(key);
    return null;
  }

  /**
   * A job client's protocol on the session kept for {@code key} ({@link #connect}), each session's
   * wrapped by {@code around}. Until the session has taken the client's job, a call that finds the
   * session gone (it ended after the check that it answers, as one killed through YARN does while
   * its master is still up) is made once more on the session looked for anew: nothing of the job
   * is on the session yet. That holds for the submission itself too: a job whose id came from a
   * session that has since ended is started over on the session YARN names now, under that id (a
   * session takes a job under any id it has not run). A submission is not made again on the session
   * it failed on: when YARN still names that one, the failure stands. Once the session has the job,
   * the client's calls stay with it.
   */
  SessionClientProtocol client(String key, Configuration conf, Lookup lookup,
                               Function<Kept, SessionClientProtocol> around) throws IOException {
    return (SessionClientProtocol) Proxy.newProxyInstance(SessionClientProtocol.class.getClassLoader(),
        new Class<?>[] {SessionClientProtocol.class}, new UntilSubmitted(key, conf, lookup, around));
  }

  private static boolean isSubmission(Method method) {
    return method.getName().equals("submitJob") || method.getName().equals("submitDescribedJob");
  }

  /** The handler of {@link #client}. */
  private final class UntilSubmitted implements InvocationHandler, Closeable {
    private final String key;
    private final Configuration conf;
    private final Lookup lookup;
    private final Function<Kept, SessionClientProtocol> around;
    private volatile SessionClientProtocol session;
    private volatile String application;
    private volatile boolean submitted;

    UntilSubmitted(String key, Configuration conf, Lookup lookup, Function<Kept, SessionClientProtocol> around)
        throws IOException {
      this.key = key;
      this.conf = conf;
      this.lookup = lookup;
      this.around = around;
      use(connect(key, conf, lookup));
    }

    private void use(Kept kept) {
      session = around.apply(kept);
      application = kept.session().application();
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      if (ProxyObjectMethods.isObjectMethod(method)) {
        return ProxyObjectMethods.answer(proxy, method, args, "client of " + session);
      }
      try {
        return call(method, args);
      } catch (SessionUnreachableException e) {
        if (submitted) {
          throw e;
        }
        LOG.info("The Vivace session went away before it took this client's job (" + e.getMessage()
            + "); looking for the session again");
        String failedOn = application;
        kept.remove(key); // YARN, not the check, says whether it is over: its master may still be ending
        addresses.forget(key);
        Kept found = connect(key, conf, lookup);
        if (isSubmission(method) && found.session().application().equals(failedOn)) {
          throw e; // the session may hold the job: it is not submitted twice
        }
        use(found);
        if (isSubmission(method)) {
          LOG.info("Starting job " + args[0] + " over on Vivace session " + application);
        }
        return call(method, args);
      }
    }

    private Object call(Method method, Object[] args) throws Throwable {
      Object result;
      try {
        result = method.invoke(session, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
      if (isSubmission(method)) {
        submitted = true;
      }
      return result;
    }

    @Override
    public void close() {
      SessionRpc.close(session);
    }
  }

  /** Forgets every kept connection to the session {@code application} (it was stopped), and its address. */
  void forget(String application) {
    kept.values().removeIf(k -> k.session().application().equals(application));
    addresses.forgetApplication(application);
  }

  /** Forgets every session kept in this JVM (those remembered on disk are checked before use). */
  void forgetAll() {
    kept.clear();
  }

  /** Whether a session is kept for {@code key}. */
  boolean keeps(String key) {
    return kept.containsKey(key);
  }

  private static boolean answers(Kept session) {
    try {
      session.check().getFilesystemName();
      return true;
    } catch (IOException | RuntimeException e) {
      LOG.info(session.session().access() + " no longer answers at " + session.session().address() + " ("
          + e.getMessage() + "); looking for the session again");
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static Kept open(Found found, Configuration conf) throws IOException {
    UserGroupInformation user = UserGroupInformation.getCurrentUser();
    // a refused connection is a master that has gone (ended, or its container stopped): tried as often as
    // MapReduce's client tries its AM before asking YARN, not Hadoop's ten times a second apart for each call
    Configuration calls = new Configuration(conf);
    calls.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_KEY,
        conf.getInt(MRJobConfig.MR_CLIENT_TO_AM_IPC_MAX_RETRIES, MRJobConfig.DEFAULT_MR_CLIENT_TO_AM_IPC_MAX_RETRIES));
    SessionClientProtocol rpc = SessionRpc.proxy(SessionClientProtocol.class, found.address(), calls,
        found.access(), user);
    Configuration once = new Configuration(conf);
    once.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_TIMEOUT_KEY, CHECK_CONNECT_TIMEOUT_MILLIS);
    once.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_KEY, 0);
    once.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_ON_SOCKET_TIMEOUTS_KEY, 0);
    ClientProtocol check = SessionRpc.proxy(ClientProtocol.class, found.address(), once, found.access(), user);
    return new Kept(found, shared(rpc), check);
  }

  /** {@code rpc} with a {@code close} that leaves it open, for the clients that share it. */
  private static SessionClientProtocol shared(SessionClientProtocol rpc) {
    return (SessionClientProtocol) Proxy.newProxyInstance(SessionClientProtocol.class.getClassLoader(),
        new Class<?>[] {SessionClientProtocol.class}, new Shared(rpc));
  }

  private static final class Shared implements InvocationHandler, Closeable {
    private final SessionClientProtocol rpc;

    Shared(SessionClientProtocol rpc) {
      this.rpc = rpc;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      if (ProxyObjectMethods.isObjectMethod(method)) {
        return ProxyObjectMethods.answer(proxy, method, args, "shared " + rpc);
      }
      try {
        return method.invoke(rpc, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    }

    @Override
    public void close() {
      // kept for the JVM's next clients
    }
  }

  /**
   * The key of the session named {@code name} for the current user of {@code conf}'s cluster:
   * its ResourceManager(s), its file system, the user, the name, and the RPC protection the
   * connection was made with.
   */
  static String key(Configuration conf, String name) throws IOException {
    // not a YarnConfiguration of conf, whose copy costs more than the rest of a warm connect: once
    // the class is loaded, every configuration reads yarn-site.xml
    return String.join("|", conf.get(YarnConfiguration.RM_ADDRESS, YarnConfiguration.DEFAULT_RM_ADDRESS),
        conf.get(YarnConfiguration.RM_HA_IDS, ""), conf.get(YarnConfiguration.RM_CLUSTER_ID, ""),
        conf.get(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY, ""),
        conf.get(CommonConfigurationKeysPublic.HADOOP_RPC_PROTECTION, "authentication"),
        UserGroupInformation.getCurrentUser().getUserName(), name);
  }
}
