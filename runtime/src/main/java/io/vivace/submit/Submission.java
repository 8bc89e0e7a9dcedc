package io.vivace.submit;

import io.vivace.localdisk.LocalDirs;
import io.vivace.sandbox.JobSandbox;
import io.vivace.sandbox.TaskScope;
import java.io.File;
import java.lang.reflect.UndeclaredThrowableException;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * A submitted job read back in this JVM ({@link SubmissionLoader}): its configuration, its own
 * user identity, its localised cache and class path, its sandbox, its splits and its local folders.
 */
public record Submission(JobID id, JobConf conf, Path submitDir, UserGroupInformation ugi,
                         JobResources resources, JobSandbox sandbox, InputSplits splits,
                         LocalDirs localDirs, LoadTimes loadTimes) {

  /**
   * Runs job code as the job's user, with {@code loader} as the thread's context class loader, in
   * {@code scope} (the working directory and exits of an attempt, or of the job's own steps).
   */
  public <T> T run(ClassLoader loader, TaskScope scope, PrivilegedExceptionAction<T> action) throws Exception {
    Thread thread = Thread.currentThread();
    ClassLoader previousLoader = thread.getContextClassLoader();
    TaskScope previousScope = TaskScope.enter(scope);
    thread.setContextClassLoader(loader);
    try {
      return ugi.doAs(action);
    } catch (UndeclaredThrowableException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    } finally {
      thread.setContextClassLoader(previousLoader);
      TaskScope.restore(previousScope);
    }
  }

  /** The job's own local folder: {@code job.xml}, its working directory, its cache. */
  public File jobDir() {
    return localDirs.jobDir();
  }
}
