package io.vivace.driver;

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
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.mapreduce.protocol.ClientProtocolProvider;

/**
 * A pass-through {@link ClientProtocolProvider} that records every job submitted through it, so
 * that the driver (and the conformance suite) can read the times, counters and task reports of
 * jobs which Apache's tools create and submit internally (TeraGen, TeraSort, RandomWriter,
 * TestDFSIO... never hand their {@code Job} to the caller).
 *
 * <p>{@link #recordOn} sets {@code mapreduce.framework.name=}{@value #FRAMEWORK_NAME} and names
 * the real framework in {@value #DELEGATE_KEY}. This provider then sets the framework name in the
 * submitting configuration to the real one and asks the other registered providers (Apache's
 * {@code local} and {@code yarn}, Vivace's {@code vivace}) for a client exactly as Hadoop's
 * {@code Cluster} would. It passes the caller's configuration object itself, so the job sees what a
 * plain run gives it, the changes the real provider makes included (the local provider forcing
 * {@code mapreduce.job.maps=1}, Vivace's shorter polling). The client it returns forwards every
 * call unchanged and notes, per job: the client's time just before submission, the job's
 * configuration as submitted ({@code job.xml}), and when the client first saw the job complete.
 * {@link #drain()} then takes a snapshot of each job's final status, counters and task reports;
 * closing the client takes one too, before the real provider may release the jobs.
 *
 * <p>Some programs build a second {@code Cluster} from a configuration a first one already
 * rewrote (TestDFSIO's {@code JobClient.runJob(JobConf)} shares its JobConf with the job). Such a
 * configuration names the real framework and still carries {@value #DELEGATE_KEY}, so this
 * provider accepts it as well. That works because {@code Cluster} asks the providers in class-path
 * order and this one's jar comes before Hadoop's and Vivace's runtime; had the real provider
 * answered first, the job would run normally, only unrecorded.
 *
 * <p>Registered in {@code META-INF/services} of the driver's jar.
 */
public final class JobRecorder extends ClientProtocolProvider {

  public static final String FRAMEWORK_NAME = "vivace-bench-recorder";
  public static final String DELEGATE_KEY = "vivace.bench.recorder.delegate";

  private static final List<RecordedJob> SUBMITTED = new ArrayList<>();

  /** Makes {@code conf} submit its jobs to {@code framework} through the recorder. */
  public static void recordOn(Configuration conf, String framework) {
    conf.set(MRConfig.FRAMEWORK_NAME, FRAMEWORK_NAME);
    conf.set(DELEGATE_KEY, framework);
  }

  /**
   * Jobs submitted since the last call, in submission order, each with a snapshot taken (as far as
   * its framework still answers).
   */
  public static List<RecordedJob> drain() {
    List<RecordedJob> jobs;
    synchronized (SUBMITTED) {
      jobs = new ArrayList<>(SUBMITTED);
      SUBMITTED.clear();
    }
    for (RecordedJob job : jobs) {
      job.snapshot();
    }
    return jobs;
  }

  @Override
  public ClientProtocol create(Configuration conf) throws IOException {
    String name = conf.get(MRConfig.FRAMEWORK_NAME);
    String framework = conf.get(DELEGATE_KEY);
    if (FRAMEWORK_NAME.equals(name) && (framework == null || framework.isEmpty())) {
      throw new IOException(DELEGATE_KEY + " is not set");
    }
    if (framework == null || !(FRAMEWORK_NAME.equals(name) || framework.equals(name))) {
      return null; // not recorded, or the program chose another framework itself
    }
    conf.set(MRConfig.FRAMEWORK_NAME, framework);
    List<String> asked = new ArrayList<>();
    for (ClientProtocolProvider provider : ServiceLoader.load(ClientProtocolProvider.class)) {
      if (provider instanceof JobRecorder) {
        continue;
      }
      asked.add(provider.getClass().getName());
      ClientProtocol real = provider.create(conf);
      if (real != null) {
        Recording recording = new Recording(provider, real, framework, conf);
        return (ClientProtocol) Proxy.newProxyInstance(ClientProtocol.class.getClassLoader(),
            new Class<?>[] {ClientProtocol.class}, recording);
      }
    }
    throw new IOException("No ClientProtocolProvider on the class path accepted "
        + MRConfig.FRAMEWORK_NAME + "=" + framework + " (asked: " + asked + ")");
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

  /** One client of the real framework: forwards every call, notes what it sees of its jobs. */
  private static final class Recording implements InvocationHandler {
    private final ClientProtocolProvider provider;
    private final ClientProtocol real;
    private final String framework;
    private final Configuration conf;
    private final List<RecordedJob> mine = new ArrayList<>();

    Recording(ClientProtocolProvider provider, ClientProtocol real, String framework,
        Configuration conf) {
      this.provider = provider;
      this.real = real;
      this.framework = framework;
      this.conf = conf;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      if (method.getDeclaringClass() == Object.class) {
        return switch (method.getName()) {
          case "equals" -> proxy == args[0];
          case "hashCode" -> System.identityHashCode(proxy);
          default -> "recording(" + real + ")";
        };
      }
      boolean submit = method.getName().equals("submitJob") && args != null && args.length > 1
          && args[0] instanceof JobID && args[1] instanceof String;
      long submitMs = System.currentTimeMillis();
      SubmittedConfiguration submitted =
          submit ? SubmittedConfiguration.read((String) args[1], conf) : null;
      Object result;
      try {
        result = method.invoke(real, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
      if (submit) {
        RecordedJob job = new RecordedJob(framework, (JobID) args[0], real, submitMs, submitted);
        synchronized (mine) {
          mine.add(job);
        }
        synchronized (SUBMITTED) {
          SUBMITTED.add(job);
        }
      } else if (result instanceof JobStatus status && status.isJobComplete()) {
        seenComplete(status.getJobID());
      }
      return result;
    }

    private void seenComplete(JobID id) {
      long now = System.currentTimeMillis();
      synchronized (mine) {
        for (RecordedJob job : mine) {
          if (job.id().toString().equals(String.valueOf(id))) {
            job.seenComplete(now);
          }
        }
      }
    }

    void close() throws IOException {
      synchronized (mine) {
        for (RecordedJob job : mine) {
          job.snapshot();
        }
      }
      provider.close(real);
    }
  }
}
