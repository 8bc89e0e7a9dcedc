package io.vivace.submit;

import io.vivace.conf.VivaceConf;
import io.vivace.localdisk.LocalDirs;
import io.vivace.sandbox.JobClassPath;
import io.vivace.sandbox.JobSandbox;
import io.vivace.sandbox.TaskLocalFileSystem;
import java.io.File;
import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Turns what the Hadoop job client staged ({@code job.xml}, {@code job.split}, cache files) into a
 * {@link Submission}: the job's configuration, its user identity with its credentials, its
 * localised resources, its local directory and its splits.
 */
public final class SubmissionLoader {

  private SubmissionLoader() {
  }

  public static Submission load(JobID id, String submitDir, Credentials credentials,
                                org.apache.hadoop.conf.Configuration clientConf) throws IOException {
    Path dir = new Path(submitDir);
    LocalDirs localDirs = LocalDirs.create(clientConf, id.toString());
    File jobDir = localDirs.jobDir();
    // Read with the job's credentials, as everything of the job is: on a Kerberos cluster the caller
    // (a session's RPC caller, an executor's container) may have no other way to the file system.
    UserGroupInformation reader = identity(UserGroupInformation.getCurrentUser().getShortUserName(), credentials);
    JobConf conf;
    long start = System.nanoTime();
    try {
      conf = reader.doAs((java.security.PrivilegedExceptionAction<JobConf>) () ->
          readJobConf(new Path(dir, "job.xml"), clientConf, jobDir));
    } catch (InterruptedException e) {
      localDirs.delete();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while submitting " + id, e);
    } catch (IOException | RuntimeException e) {
      localDirs.delete();
      throw e;
    }
    HdfsCloseRetries.shorten(conf); // before the job's first file system is made with it
    String user = conf.getUser() != null ? conf.getUser() : reader.getShortUserName();
    // A job-private identity gives the job its own cached FileSystem instances: its local one
    // resolves relative paths in the working directory of the task using it.
    UserGroupInformation ugi = user.equals(reader.getShortUserName()) ? reader : identity(user, credentials);
    ClassLoader clientLoader = Thread.currentThread().getContextClassLoader();
    try {
      return ugi.doAs((java.security.PrivilegedExceptionAction<Submission>) () -> {
        long confRead = System.nanoTime();
        org.apache.hadoop.fs.LocalFileSystem localFs = TaskLocalFileSystem.installFor(conf);
        JobResources resources = JobResources.localize(conf, jobDir, dir, clientLoader);
        long localized = System.nanoTime();
        conf.set(MRJobConfig.JOB_LOCAL_DIR, jobDir.getAbsolutePath());
        JobSandbox sandbox = new JobSandbox(id.toString(),
            JobClassPath.of(conf.getClassLoader(), conf),
            VivaceConf.getBoolean(conf, "vivace.task.isolation"));
        conf.setClassLoader(sandbox.jobLoader());
        localFs.setWorkingDirectory(new Path(resources.workDir().getAbsolutePath()));
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(conf.getClassLoader());
        long sandboxed = System.nanoTime();
        try {
          InputSplits splits = SplitReader.read(id, conf, dir);
          LoadTimes times = new LoadTimes(millis(start, confRead), millis(confRead, localized),
              millis(localized, sandboxed), millis(sandboxed, System.nanoTime()));
          return new Submission(id, conf, dir, ugi, resources, sandbox, splits, localDirs, times);
        } finally {
          thread.setContextClassLoader(previous);
        }
      });
    } catch (InterruptedException e) {
      localDirs.delete();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while submitting " + id, e);
    } catch (IOException | RuntimeException e) {
      localDirs.delete();
      FileSystem.closeAllForUGI(ugi);
      throw e;
    }
  }

  private static long millis(long fromNanos, long toNanos) {
    return (toNanos - fromNanos) / 1_000_000;
  }

  /** A new identity of {@code user} holding {@code credentials} (and no other). */
  private static UserGroupInformation identity(String user, Credentials credentials) {
    UserGroupInformation ugi = UserGroupInformation.createRemoteUser(user);
    ugi.addCredentials(credentials);
    return ugi;
  }

  /**
   * The job's configuration, from a local copy of the staged {@code job.xml} in the job's local
   * directory: a file resource can be read again when a task's configuration reloads. Through file
   * systems of its own, never the cached ones of the identity reading, which become the job's (its
   * local one must be made in its sandbox).
   */
  private static JobConf readJobConf(Path jobXml, org.apache.hadoop.conf.Configuration clientConf,
                                     File jobDir) throws IOException {
    File local = new File(jobDir, "job.xml");
    try (FileSystem fs = FileSystem.newInstance(jobXml.toUri(), clientConf);
         java.io.InputStream in = fs.open(jobXml)) {
      java.nio.file.Files.copy(in, local.toPath(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    JobConf conf = new JobConf(false);
    conf.addResource(new Path(local.toURI()));
    conf.size(); // parse now: a malformed job.xml fails the submission, not a task
    return conf;
  }
}
