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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A session's job client protocol to which the session pushes each watched job's end instead of
 * being polled for it. Hadoop's job client waits for a job by asking its status every few
 * milliseconds ({@code client/ClientPolls}); here the first status asked of a running job starts a
 * watch: a thread that waits on the session for the job's end ({@link SessionClientProtocol#awaitJobEnd}),
 * one call at a time, each answered at the end or after {@link #WAIT_MILLIS} with the job's status
 * then. While a watch is live, a status is answered from its last answer, about a wait old at
 * most (and the job's end as soon as the session sent it), so a waiting client sees its job end
 * without polling the session. While the session lets no more calls wait (as many wait already),
 * the watch asks for the status once a wait instead, so that a client asks about ten times a second
 * whatever the load, and hears the end up to a wait late. A watch stops at the job's end, or on any
 * error (a session of an older build has no such call): the job's status is then asked of the
 * session at every call, as before, and no other watch of it is started. A kill, a
 * task kill or a priority change drops the job's last answer, so the status asked after one is the
 * session's.
 */
public final class PushedJobEnds implements InvocationHandler, Closeable {

  private static final Logger LOG = LoggerFactory.getLogger(PushedJobEnds.class);
  /** How long the session holds each call for a job's end: about the age of a watched status at most. */
  public static final long WAIT_MILLIS = 100;
  /** A live watch's answer older than this (its call is stuck: retries to a gone session) is not used. */
  private static final long STALE_NANOS = 3 * WAIT_MILLIS * 1_000_000L;
  private static final Set<String> CHANGING_CALLS = Set.of("killJob", "killTask", "setJobPriority");
  private static final AtomicInteger THREADS = new AtomicInteger();
  private static final ExecutorService WATCHERS = Executors.newCachedThreadPool(task -> {
    Thread thread = new Thread(task, "vivace-job-end-" + THREADS.incrementAndGet());
    thread.setDaemon(true);
    return thread;
  });

  private final SessionClientProtocol session;
  private final Map<JobID, Watch> watches = new ConcurrentHashMap<>();
  private volatile boolean closed;

  private PushedJobEnds(SessionClientProtocol session) {
    this.session = session;
  }

  public static SessionClientProtocol around(SessionClientProtocol session) {
    return (SessionClientProtocol) Proxy.newProxyInstance(SessionClientProtocol.class.getClassLoader(),
        new Class<?>[] {SessionClientProtocol.class}, new PushedJobEnds(session));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    if (ProxyObjectMethods.isObjectMethod(method)) {
      return ProxyObjectMethods.answer(proxy, method, args, "pushed job ends of " + session);
    }
    if (method.getName().equals("getJobStatus") && args[0] instanceof JobID job) {
      return status(job);
    }
    try {
      return method.invoke(session, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    } finally {
      if (CHANGING_CALLS.contains(method.getName())) {
        forgetAnswer(args[0]);
      }
    }
  }

  /** After a call that changes the job of {@code subject} (a job or an attempt id), its status is the session's. */
  private void forgetAnswer(Object subject) {
    JobID job = subject instanceof JobID id ? id
        : subject instanceof org.apache.hadoop.mapreduce.TaskAttemptID attempt ? attempt.getJobID() : null;
    Watch watch = job == null ? null : watches.get(job);
    if (watch != null) {
      watch.forgetAnswer();
    }
  }

  private JobStatus status(JobID job) throws Exception {
    Watch watch = watches.get(job);
    if (watch != null) {
      JobStatus known = watch.answer();
      if (known != null) {
        if (known.isJobComplete()) {
          watches.remove(job, watch);
        }
        return known;
      }
    }
    JobStatus status = session.getJobStatus(job);
    if (status == null || status.isJobComplete()) {
      if (watch != null) {
        watches.remove(job, watch);
      }
    } else if (watch == null && !closed) {
      Watch started = new Watch(job, status);
      if (watches.putIfAbsent(job, started) == null) {
        WATCHERS.execute(started);
      }
    } else if (watch != null) {
      watch.answered(status);
    }
    return status;
  }

  @Override
  public void close() {
    closed = true;
    SessionRpc.close(session);
  }

  /** The wait on the session for one job's end, and its last answer. */
  private final class Watch implements Runnable {
    private final JobID job;
    private volatile JobStatus last;
    private volatile long answeredAt;
    private int forgets;
    private volatile boolean live = true;

    Watch(JobID job, JobStatus first) {
      this.job = job;
      answered(first);
    }

    synchronized void answered(JobStatus status) {
      answeredAt = System.nanoTime();
      last = status;
    }

    /** Drops the last answer and any answer to a call made before now that is not the job's end. */
    synchronized void forgetAnswer() {
      forgets++;
      last = null;
    }

    synchronized int forgets() {
      return forgets;
    }

    /** {@code status}, answered to a call made after {@code forgetsBefore} forgets, unless another came since. */
    private synchronized void answered(JobStatus status, int forgetsBefore) {
      if (status.isJobComplete() || forgets == forgetsBefore) {
        answered(status);
      }
    }

    /** The last answer while the watch is live and recent (an end whenever it came), else null. */
    JobStatus answer() {
      JobStatus status = last;
      if (status == null) {
        return null;
      }
      if (status.isJobComplete()) {
        return status;
      }
      return live && System.nanoTime() - answeredAt < STALE_NANOS ? status : null;
    }

    @Override
    public void run() {
      try {
        while (!closed) {
          int forgetsBefore = forgets();
          JobStatus status = session.awaitJobEnd(job, WAIT_MILLIS);
          if (status == null) { // as many calls wait as the session lets wait: the status then, asked again after a wait
            Thread.sleep(WAIT_MILLIS);
            status = session.getJobStatus(job);
            if (status == null) {
              return; // the session does not know the job: its status is asked for at every call
            }
          }
          answered(status, forgetsBefore);
          if (status.isJobComplete()) {
            return;
          }
        }
      } catch (Exception e) {
        LOG.debug("Stopped waiting for the end of " + job + " on the session: " + e);
      } finally {
        live = false; // kept, so that no other watch of the job is started: its status is asked for at every call
      }
    }
  }
}
