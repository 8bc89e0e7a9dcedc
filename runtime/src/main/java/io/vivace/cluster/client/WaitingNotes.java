package io.vivace.cluster.client;

import io.vivace.cluster.rpc.ProxyObjectMethods;
import io.vivace.cluster.rpc.SessionClientProtocol;
import io.vivace.cluster.rpc.SessionRpc;
import java.io.Closeable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A session's job client protocol that logs, in the client, what a job's work waits for whenever
 * the session says it changed (a job status's scheduling info: no executor, YARN giving the session
 * no containers and why, slots held by other jobs), so that a job that cannot run does not sit at
 * "map 0% reduce 0%" without a word. Hadoop's job client polls the status; this reads it on the way.
 */
final class WaitingNotes implements InvocationHandler, Closeable {

  private static final Logger LOG = LoggerFactory.getLogger(WaitingNotes.class);

  private final ClientProtocol session;
  private final Map<JobID, String> told = new ConcurrentHashMap<>();

  private WaitingNotes(ClientProtocol session) {
    this.session = session;
  }

  static SessionClientProtocol around(SessionClientProtocol session) {
    return (SessionClientProtocol) Proxy.newProxyInstance(SessionClientProtocol.class.getClassLoader(),
        new Class<?>[] {SessionClientProtocol.class}, new WaitingNotes(session));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    if (ProxyObjectMethods.isObjectMethod(method)) {
      return ProxyObjectMethods.answer(proxy, method, args, "waiting notes of " + session);
    }
    Object result;
    try {
      result = method.invoke(session, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
    if (result instanceof JobStatus status && method.getName().equals("getJobStatus")) {
      note(status);
    }
    return result;
  }

  private void note(JobStatus status) {
    String info = status.getSchedulingInfo();
    if (info == null || info.equals("NA") || status.isJobComplete()) {
      info = "";
    }
    String before = told.put(status.getJobID(), info);
    if (!info.isEmpty() && !info.equals(before)) {
      LOG.info("Job " + status.getJobID() + " waits: " + info);
    } else if (info.isEmpty() && before != null && !before.isEmpty()) {
      LOG.info("Job " + status.getJobID() + " no longer waits");
    }
  }

  @Override
  public void close() {
    SessionRpc.close(session);
  }
}
