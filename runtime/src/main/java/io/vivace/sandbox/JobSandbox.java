package io.vivace.sandbox;

import java.util.concurrent.ConcurrentHashMap;

/**
 * A job's class loaders: one for each worker thread that runs its attempts, so tasks running at
 * the same time never share a static field, and one for the job's own steps (setup, commit, abort),
 * as YARN would run them in the application master's JVM. Attempts that follow each other on one
 * worker share its loader, as tasks of a reused JVM do on Hadoop. Nothing is shared with other
 * jobs. With isolation off ({@code vivace.task.isolation=false}) every attempt of the job uses the
 * job's loader: the job is still apart from other jobs, its tasks no longer from each other.
 */
public final class JobSandbox {

  private final String jobId;
  private final JobClassPath classPath;
  private final boolean perWorker;
  private final TaskClassLoader jobLoader;
  private final ConcurrentHashMap<Long, TaskClassLoader> workerLoaders = new ConcurrentHashMap<>();

  public JobSandbox(String jobId, JobClassPath classPath, boolean perWorker) {
    this.jobId = jobId;
    this.classPath = classPath;
    this.perWorker = perWorker;
    this.jobLoader = new TaskClassLoader(jobId, classPath);
  }

  /** The loader of the job's own steps. */
  public ClassLoader jobLoader() {
    return jobLoader;
  }

  /** The loader of the attempts that worker {@code workerId} runs for this job. */
  public ClassLoader loaderFor(long workerId) {
    if (!perWorker) {
      return jobLoader;
    }
    return workerLoaders.computeIfAbsent(workerId, id -> new TaskClassLoader(jobId + "-worker-" + id, classPath));
  }

  public JobClassPath classPath() {
    return classPath;
  }

  /** Drops the job's classes from Hadoop's static caches, so that its loaders can be collected. */
  public void close() {
    HadoopCaches.forget(loader -> loader instanceof TaskClassLoader && ownedHere(loader));
    workerLoaders.clear();
  }

  private boolean ownedHere(ClassLoader loader) {
    return loader == jobLoader || workerLoaders.containsValue(loader);
  }
}
