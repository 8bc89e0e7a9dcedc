package org.apache.hadoop.mapreduce;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;

/**
 * A test's look inside {@link Job#submit()}: the job goes through Hadoop's own {@link JobSubmitter}
 * (package-private, hence this package) with the cluster's {@link ClientProtocol} wrapped, so that
 * each call to the framework is timed, and what is left of {@code submit()} is the staging on the
 * cluster's file system. Then it polls the job's status every 5 ms, as Hadoop's client does with
 * Vivace's poll interval, until the job is complete.
 */
public final class PhaseTimedSubmission {

  /** Milliseconds by phase, and the wall-clock instants the session reported. */
  public record Phases(double connectMs, Map<String, Double> callMs, double submitMs, double waitMs,
                       long submitWallMs, JobStatus status, TaskReport[] maps, TaskReport[] reduces,
                       long doneWallMs) {

    /** Time spent in {@code submit()} outside the framework's calls: JobSubmitter's staging. */
    public double stagingMs() {
      return submitMs - callMs.getOrDefault("submitJob", 0.0) - callMs.getOrDefault("getNewJobID", 0.0);
    }

    public String line() {
      long firstStart = Long.MAX_VALUE;
      long lastFinish = 0;
      for (TaskReport[] reports : new TaskReport[][] {maps, reduces}) {
        for (TaskReport r : reports) {
          firstStart = Math.min(firstStart, r.getStartTime());
          lastFinish = Math.max(lastFinish, r.getFinishTime());
        }
      }
      return String.format(java.util.Locale.ROOT,
          "connect %.1f | submit %.1f (staging %.1f, getNewJobID %.1f, submitJob %.1f) | job start@+%d"
              + " first attempt@+%d attempts done@+%d job finish@+%d client done@+%d ms | status polls %.1f ms",
          connectMs, submitMs, stagingMs(), callMs.getOrDefault("getNewJobID", 0.0),
          callMs.getOrDefault("submitJob", 0.0), status.getStartTime() - submitWallMs, firstStart - submitWallMs,
          lastFinish - submitWallMs, status.getFinishTime() - submitWallMs, doneWallMs - submitWallMs,
          callMs.getOrDefault("getJobStatus", 0.0));
    }
  }

  private PhaseTimedSubmission() {
  }

  /** Runs {@code job} (not submitted yet) on a cluster of its own configuration, timing each phase. */
  public static Phases run(Job job) throws Exception {
    Map<String, Double> calls = new LinkedHashMap<>();
    job.getConfiguration().setBoolean("mapred.mapper.new-api", true);
    job.getConfiguration().setBoolean("mapred.reducer.new-api", true);
    long t0 = System.nanoTime();
    Cluster cluster = new Cluster(job.getConfiguration());
    try {
      long t1 = System.nanoTime();
      ClientProtocol inner = cluster.getClient();
      ClientProtocol timed = (ClientProtocol) Proxy.newProxyInstance(ClientProtocol.class.getClassLoader(),
          new Class<?>[] {ClientProtocol.class}, (proxy, method, args) -> {
            long start = System.nanoTime();
            try {
              return method.invoke(inner, args);
            } catch (InvocationTargetException e) {
              throw e.getCause();
            } finally {
              calls.merge(method.getName(), (System.nanoTime() - start) / 1e6, Double::sum);
            }
          });
      long submitWall = System.currentTimeMillis();
      long t2 = System.nanoTime();
      JobSubmitter submitter = new JobSubmitter(cluster.getFileSystem(), timed);
      JobStatus status = submitter.submitJobInternal(job, cluster);
      long t3 = System.nanoTime();
      while (!status.isJobComplete()) {
        Thread.sleep(5);
        status = timed.getJobStatus(status.getJobID());
      }
      long doneWall = System.currentTimeMillis();
      long t4 = System.nanoTime();
      Map<String, Double> submitCalls = new LinkedHashMap<>(calls);
      submitCalls.put("getJobStatus", calls.getOrDefault("getJobStatus", 0.0));
      return new Phases((t1 - t0) / 1e6, submitCalls, (t3 - t2) / 1e6, (t4 - t3) / 1e6, submitWall, status,
          inner.getTaskReports(status.getJobID(), TaskType.MAP), inner.getTaskReports(status.getJobID(),
          TaskType.REDUCE), doneWall);
    } finally {
      cluster.close();
    }
  }
}
