package io.vivace.cluster.session;

import io.vivace.cluster.rpc.SessionClientProtocol;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;

/**
 * A session's job client protocol that counts the calls its clients make, by method, and notes
 * which call first answered each job's end; it can refuse every wait for a job's end, as a session
 * whose waits are all taken does.
 */
final class CountedJobCalls implements InvocationHandler {

  private final SessionJobs jobs;
  private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
  private final Map<JobID, String> endAnsweredBy = new ConcurrentHashMap<>();
  private volatile boolean refuseWaits;

  CountedJobCalls(SessionJobs jobs) {
    this.jobs = jobs;
  }

  SessionClientProtocol protocol() {
    return (SessionClientProtocol) Proxy.newProxyInstance(SessionClientProtocol.class.getClassLoader(),
        new Class<?>[] {SessionClientProtocol.class}, this);
  }

  void refuseWaits() {
    refuseWaits = true;
  }

  void reset() {
    counts.clear();
  }

  int count(String method) {
    AtomicInteger n = counts.get(method);
    return n == null ? 0 : n.get();
  }

  Map<String, Integer> counts() {
    Map<String, Integer> all = new TreeMap<>();
    counts.forEach((method, n) -> all.put(method, n.get()));
    return all;
  }

  /** The method whose answer first told a client that {@code job} had ended, or null. */
  String endAnsweredBy(JobID job) {
    return endAnsweredBy.get(job);
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    counts.computeIfAbsent(method.getName(), m -> new AtomicInteger()).incrementAndGet();
    if (refuseWaits && method.getName().equals("awaitJobEnd")) {
      return null;
    }
    Object answer;
    try {
      answer = method.invoke(jobs, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
    if (answer instanceof JobStatus status && status.isJobComplete()) {
      endAnsweredBy.putIfAbsent(status.getJobID(), method.getName());
    }
    return answer;
  }
}
