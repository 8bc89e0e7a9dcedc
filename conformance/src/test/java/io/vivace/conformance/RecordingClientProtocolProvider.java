package io.vivace.conformance;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.mapreduce.protocol.ClientProtocolProvider;

/**
 * A pass-through {@link ClientProtocolProvider} that lets the suite read the counters of jobs which
 * Apache's tools create and submit internally (TeraGen, TeraSort, Sort, RandomWriter, TestDFSIO...
 * never hand their {@code Job} to the caller).
 *
 * <p>{@link Frameworks#conf} sets {@code mapreduce.framework.name=}{@value #FRAMEWORK_NAME} and
 * names the real framework in {@value #DELEGATE_KEY}. This provider then sets the framework name in
 * the submitting configuration to the real one and asks the other registered providers (Apache's
 * {@code local}, Vivace's {@code vivace}, ...) for a client exactly as {@code Cluster} would, so the
 * job configuration the real framework sees is the one a plain run would give it (framework name
 * included, and with the changes the real provider makes, such as the local provider forcing
 * {@code mapreduce.job.maps=1}). The returned client is wrapped in a proxy that forwards every call
 * unchanged and remembers the ids of the jobs submitted through it, so that {@link #drain()} can
 * hand them back with their final counters.
 *
 * <p>Some programs build a second {@code Cluster} from a configuration a first one already
 * rewrote (TestDFSIO: {@code JobClient.runJob(JobConf)} shares its JobConf with the job). Such a
 * configuration names the real framework and still carries {@value #DELEGATE_KEY}, so this
 * provider also accepts it; that works because Cluster asks providers in class-path order and the
 * test resources come first. Had the real provider answered first, the job would still run
 * normally, only unrecorded ({@link Runs.Result#onlyJob()} then says so).
 *
 * <p>Registered in {@code META-INF/services} of the test resources.
 */
public final class RecordingClientProtocolProvider extends ClientProtocolProvider {

  public static final String FRAMEWORK_NAME = "vivace-conformance-recorder";
  public static final String DELEGATE_KEY = "vivace.conformance.delegate.framework";

  private static final List<RecordedJob> SUBMITTED = new ArrayList<>();

  /** Jobs submitted since the last call, in submission order. */
  public static List<RecordedJob> drain() {
    synchronized (SUBMITTED) {
      List<RecordedJob> out = new ArrayList<>(SUBMITTED);
      SUBMITTED.clear();
      return out;
    }
  }

  @Override
  public ClientProtocol create(Configuration conf) throws IOException {
    String name = conf.get(MRConfig.FRAMEWORK_NAME);
    String framework = conf.get(DELEGATE_KEY);
    if (FRAMEWORK_NAME.equals(name) && (framework == null || framework.isEmpty())) {
      throw new IOException(DELEGATE_KEY + " is not set");
    }
    if (framework == null || !(FRAMEWORK_NAME.equals(name) || framework.equals(name))) {
      return null; // not a conformance run, or the program chose another framework itself
    }
    conf.set(MRConfig.FRAMEWORK_NAME, framework);
    List<String> tried = new ArrayList<>();
    for (ClientProtocolProvider provider : ServiceLoader.load(ClientProtocolProvider.class)) {
      if (provider instanceof RecordingClientProtocolProvider) {
        continue;
      }
      tried.add(provider.getClass().getName());
      ClientProtocol real = provider.create(conf);
      if (real != null) {
        Recording handler = new Recording(provider, real, framework);
        return (ClientProtocol) Proxy.newProxyInstance(
            ClientProtocol.class.getClassLoader(), new Class<?>[] {ClientProtocol.class}, handler);
      }
    }
    throw new IOException("No ClientProtocolProvider on the classpath accepted "
        + MRConfig.FRAMEWORK_NAME + "=" + framework + " (asked: " + tried + ")."
        + ("local".equals(framework) ? ""
            : " Is the engine registered in META-INF/services? While it is not, run with -D"
                + Frameworks.PROPERTY + "=local."));
  }

  @Override
  public ClientProtocol create(InetSocketAddress addr, Configuration conf) throws IOException {
    return create(conf);
  }

  @Override
  public void close(ClientProtocol clientProtocol) throws IOException {
    if (clientProtocol != null && Proxy.isProxyClass(clientProtocol.getClass())
        && Proxy.getInvocationHandler(clientProtocol) instanceof Recording recording) {
      recording.close();
    }
  }

  /** Forwards to the real client; records submissions. */
  private static final class Recording implements InvocationHandler {
    private final ClientProtocolProvider provider;
    private final ClientProtocol real;
    private final String framework;
    private final List<RecordedJob> mine = new ArrayList<>();

    Recording(ClientProtocolProvider provider, ClientProtocol real, String framework) {
      this.provider = provider;
      this.real = real;
      this.framework = framework;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      if (method.getDeclaringClass() == Object.class) {
        switch (method.getName()) {
          case "equals":
            return proxy == args[0];
          case "hashCode":
            return System.identityHashCode(proxy);
          default:
            return "recording(" + real + ")";
        }
      }
      Object result;
      try {
        result = method.invoke(real, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
      if (method.getName().equals("submitJob") && args != null && args.length > 0
          && args[0] instanceof JobID id) {
        RecordedJob job = new RecordedJob(framework, id, real);
        synchronized (mine) {
          mine.add(job);
        }
        synchronized (SUBMITTED) {
          SUBMITTED.add(job);
        }
      }
      return result;
    }

    void close() throws IOException {
      // Keep what the suite needs before the real framework may release the jobs.
      synchronized (mine) {
        for (RecordedJob job : mine) {
          job.snapshotQuietly();
        }
      }
      provider.close(real);
    }
  }

  /** A job submitted through the recorder. */
  public static final class RecordedJob {
    private final String framework;
    private final JobID id;
    private final ClientProtocol client;
    private volatile Counters counters;
    private volatile JobStatus status;

    RecordedJob(String framework, JobID id, ClientProtocol client) {
      this.framework = framework;
      this.id = id;
      this.client = client;
    }

    public String framework() {
      return framework;
    }

    public JobID id() {
      return id;
    }

    /** The job's final counters, as the real framework reports them to {@code Job.getCounters()}. */
    public Counters counters() throws IOException, InterruptedException {
      Counters c = counters;
      if (c == null) {
        c = client.getJobCounters(id);
        if (c == null) {
          throw new IOException(framework + " returned no counters for " + id);
        }
        JobStatus s = client.getJobStatus(id);
        if (s != null && s.isJobComplete()) {
          counters = c;
        }
      }
      return c;
    }

    public JobStatus status() throws IOException, InterruptedException {
      JobStatus s = status;
      if (s == null) {
        s = client.getJobStatus(id);
        if (s != null && s.isJobComplete()) {
          status = s;
        }
      }
      return s;
    }

    void snapshotQuietly() {
      try {
        status();
        counters();
      } catch (Exception | LinkageError ignored) {
        // Best effort: the suite reports a missing snapshot when it asks.
      }
    }

    @Override
    public String toString() {
      return framework + ":" + id;
    }
  }
}
