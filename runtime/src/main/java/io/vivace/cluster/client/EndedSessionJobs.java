package io.vivace.cluster.client;

import io.vivace.cluster.SessionEndNote;
import io.vivace.cluster.rpc.ProxyObjectMethods;
import io.vivace.cluster.rpc.SessionClientProtocol;
import io.vivace.cluster.rpc.SessionRpc;
import io.vivace.cluster.rpc.SessionUnreachableException;
import java.io.Closeable;
import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobPriority;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.exceptions.YarnException;

/**
 * A session's job client protocol that, once the session has ended, answers for the jobs it killed
 * on its way out: their status is KILLED with the session's reason, read from the application's
 * final diagnostics ({@link SessionEndNote}), their counters none and their events empty, as
 * MapReduce's client answers from the application report when its AM is gone and the history server
 * does not know the job. Once a job's end is read so, its later calls, and the calls on any other job
 * the note names from this JVM's clients, are answered without trying the session again (each try
 * waits for the connection's retries). Any other call, and any job the note does not name, still
 * fails with the {@link SessionUnreachableException}.
 */
final class EndedSessionJobs implements InvocationHandler, Closeable {

  /** The calls on a job the session killed that are answered once it has gone. */
  private static final Set<String> ANSWERED = Set.of("getJobStatus", "getJobCounters",
      "getTaskCompletionEvents", "getTaskReports", "getTaskDiagnostics");

  /**
   * YARN's final report of each session this JVM's clients have found ended (once one no longer
   * answered): it does not change, so it is asked for once.
   */
  private static final Map<ApplicationId, ApplicationReport> ENDED = new ConcurrentHashMap<>();

  private final ClientProtocol session;
  private final Configuration conf;
  private final ApplicationId application;
  private final Map<JobID, JobStatus> killed = new ConcurrentHashMap<>();

  private EndedSessionJobs(ClientProtocol session, Configuration conf, ApplicationId application) {
    this.session = session;
    this.conf = conf;
    this.application = application;
  }

  static SessionClientProtocol around(SessionClientProtocol session, Configuration conf, ApplicationId application) {
    return (SessionClientProtocol) Proxy.newProxyInstance(SessionClientProtocol.class.getClassLoader(),
        new Class<?>[] {SessionClientProtocol.class}, new EndedSessionJobs(session, conf, application));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    if (ProxyObjectMethods.isObjectMethod(method)) {
      return ProxyObjectMethods.answer(proxy, method, args, "ended jobs of " + session);
    }
    if (args != null && args.length > 0 && args[0] instanceof JobID job && ANSWERED.contains(method.getName())
        && ENDED.containsKey(application)) { // a job's end is known only once its session's is
      Optional<JobStatus> known = killedStatus(job);
      if (known.isPresent()) {
        return answerFor(method.getName(), known.get(), null); // the session is gone: no call waits for it again
      }
    }
    try {
      return method.invoke(session, args);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof SessionUnreachableException unreachable
          && args != null && args.length > 0 && args[0] instanceof JobID job) {
        Optional<JobStatus> end = killedStatus(job);
        if (end.isPresent()) {
          return answerFor(method.getName(), end.get(), unreachable);
        }
      }
      throw e.getCause();
    }
  }

  private static Object answerFor(String method, JobStatus end, SessionUnreachableException unreachable)
      throws SessionUnreachableException {
    return switch (method) {
      case "getJobStatus" -> end;
      case "getJobCounters" -> null; // Hadoop's Job prints no counters then, as for a job its history lacks
      case "getTaskCompletionEvents" -> new TaskCompletionEvent[0];
      case "getTaskReports" -> new TaskReport[0];
      case "getTaskDiagnostics" -> new String[0];
      default -> throw unreachable;
    };
  }

  private Optional<JobStatus> killedStatus(JobID job) throws IOException {
    JobStatus known = killed.get(job);
    if (known != null) {
      return Optional.of(known);
    }
    ApplicationReport report = endedReport();
    if (report == null) {
      return Optional.empty();
    }
    Optional<String> why = SessionEndNote.killedBecause(report.getDiagnostics(), job.toString());
    if (why.isEmpty()) {
      return Optional.empty();
    }
    org.apache.hadoop.mapred.JobStatus status = new org.apache.hadoop.mapred.JobStatus(
        org.apache.hadoop.mapred.JobID.downgrade(job), 1f, 1f, 1f, 1f,
        org.apache.hadoop.mapred.JobStatus.KILLED, JobPriority.NORMAL, report.getUser(), null, null,
        report.getTrackingUrl());
    status.setFailureInfo("Job killed: the Vivace session is ending (" + why.get() + ")");
    killed.put(job, status);
    return Optional.of(status);
  }

  /** YARN's report of the session once it has ended; null while it runs or when YARN no longer knows it. */
  private ApplicationReport endedReport() throws IOException {
    ApplicationReport ended = ENDED.get(application);
    if (ended != null) {
      return ended;
    }
    ApplicationReport report = report();
    if (report == null || !hasEnded(report.getYarnApplicationState())) {
      return null;
    }
    ENDED.put(application, report);
    return report;
  }

  private ApplicationReport report() throws IOException {
    YarnClient yarn = SessionClient.yarn(conf);
    try {
      return yarn.getApplicationReport(application);
    } catch (YarnException e) {
      return null; // the ResourceManager no longer knows the session: nothing more to say than unreachable
    } finally {
      yarn.stop();
    }
  }

  private static boolean hasEnded(YarnApplicationState state) {
    return state == YarnApplicationState.FINISHED || state == YarnApplicationState.KILLED
        || state == YarnApplicationState.FAILED;
  }

  @Override
  public void close() {
    SessionRpc.close(session);
  }
}
