package io.vivace.cluster.client;

import io.vivace.cluster.rpc.ProxyObjectMethods;
import io.vivace.cluster.rpc.SessionClientProtocol;
import io.vivace.cluster.rpc.SessionRpc;
import io.vivace.submit.JobDescription;
import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobSubmissionFiles;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A session's job client protocol on which a job that needs nothing staged on the cluster's file
 * system ({@link StagingNeeds}) is submitted without writing there. It names a private local folder
 * ({@code <java.io.tmpdir>/vivace-submit-<user>}, {@code 0700}) as the staging area and the system
 * folder, so that Hadoop's own job client writes the job's {@code job.xml} and split files there;
 * the job is then sent to the session as their bytes ({@link SessionClientProtocol#submitDescribedJob})
 * and its folder removed. Hadoop's job client still checks the staging area as it does on a cluster:
 * its owner must be the submitting user, so a job submitted as another user than this process's
 * (a proxy user, a test's remote user) is staged on the cluster's file system, as is a job with a
 * staging need. A description too large for a call ({@link #largestDescription}) is staged there too,
 * once Hadoop's client has written it: its files are copied into the session's staging area.
 */
final class DescribedSubmissions implements InvocationHandler, Closeable {

  private static final Logger LOG = LoggerFactory.getLogger(DescribedSubmissions.class);
  private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
  /**
   * The scheme of {@code client/StagingFileSystem}, the local file system the embedded engine's
   * jobs are staged on, which reads and sets permissions without forking {@code ls} and
   * {@code chmod} (found by its scheme: that package is the session client's caller).
   */
  private static final String STAGING_SCHEME = "vivace-staging";
  private static final String MAX_CALL_BYTES = CommonConfigurationKeys.IPC_MAXIMUM_DATA_LENGTH;

  private final SessionClientProtocol session;
  private final Configuration conf;

  private DescribedSubmissions(SessionClientProtocol session, Configuration conf) {
    this.session = session;
    this.conf = conf;
  }

  /**
   * {@code session} submitting the job of {@code conf} by description when it can. {@code conf}
   * is the job's own configuration: Hadoop's {@code Cluster} connects with it.
   */
  static SessionClientProtocol around(SessionClientProtocol session, Configuration conf) {
    return (SessionClientProtocol) Proxy.newProxyInstance(SessionClientProtocol.class.getClassLoader(),
        new Class<?>[] {SessionClientProtocol.class}, new DescribedSubmissions(session, conf));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    if (ProxyObjectMethods.isObjectMethod(method)) {
      return ProxyObjectMethods.answer(proxy, method, args, "described submissions on " + session);
    }
    switch (method.getName()) {
      case "getSystemDir" -> {
        File folder = localFolder();
        if (folder != null) {
          return onStagingFileSystem(folder);
        }
      }
      case "getStagingAreaDir" -> {
        File folder = localFolder();
        if (folder != null) {
          return onStagingFileSystem(new File(folder, ".staging"));
        }
      }
      case "submitJob" -> {
        File submitDir = localSubmitDir((String) args[1]);
        if (submitDir != null) {
          return submitDescribed((JobID) args[0], submitDir, (Credentials) args[2]);
        }
      }
      default -> {
      }
    }
    try {
      return method.invoke(session, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /**
   * The private local folder the job's files are written into when it needs nothing staged and
   * its user is this process's; null when the job is staged on the cluster's file system.
   */
  private File localFolder() throws IOException {
    List<String> needs = StagingNeeds.of(conf);
    if (!needs.isEmpty()) {
      LOG.debug("The job is staged on the cluster's file system for " + needs);
      return null;
    }
    String user = UserGroupInformation.getCurrentUser().getShortUserName();
    if (!user.equals(System.getProperty("user.name"))) {
      return null; // Hadoop's job client wants a staging area the submitting user owns
    }
    File folder = folderOf(user);
    java.nio.file.Path path = folder.toPath();
    if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
      try {
        Files.createDirectories(path, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
      } catch (java.nio.file.FileAlreadyExistsException raced) {
        // another client of the user's made it
      }
    }
    if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)
        || !Files.getOwner(path, LinkOption.NOFOLLOW_LINKS).getName().equals(user)) {
      LOG.warn(folder + " is not a folder of " + user + ": the job is staged on the cluster's file system");
      return null;
    }
    if (!Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS).equals(OWNER_ONLY)) {
      Files.setPosixFilePermissions(path, OWNER_ONLY);
    }
    // Hadoop's job client gives a job without a working folder that of the staging file system;
    // on a cluster that is the default file system's
    if (conf.get(MRJobConfig.WORKING_DIR) == null) {
      conf.set(MRJobConfig.WORKING_DIR, FileSystem.get(conf).getWorkingDirectory().toString());
    }
    return folder;
  }

  /** The user's private local folder of job files on their way to a session. */
  private static File folderOf(String user) {
    return new File(System.getProperty("java.io.tmpdir"), "vivace-submit-" + user);
  }

  private static String onStagingFileSystem(File folder) {
    return new Path(STAGING_SCHEME, null, folder.getAbsolutePath()).toString();
  }

  /** The job's folder when the job client wrote it into this client's local folder; else null. */
  private static File localSubmitDir(String submitDir) {
    Path dir = new Path(submitDir);
    if (!STAGING_SCHEME.equals(dir.toUri().getScheme())) {
      return null;
    }
    String user;
    try {
      user = UserGroupInformation.getCurrentUser().getShortUserName();
    } catch (IOException e) {
      return null;
    }
    File root = folderOf(user).getAbsoluteFile();
    File local = new File(dir.toUri().getPath()).getAbsoluteFile();
    return local.toPath().normalize().startsWith(root.toPath()) ? local : null;
  }

  private Object submitDescribed(JobID jobId, File submitDir, Credentials credentials)
      throws IOException, InterruptedException {
    try {
      // the tokens a job staged on the cluster's file system would have been given for it
      TokenCache.obtainTokensForNamenodes(credentials, new Path[] {FileSystem.get(conf).getHomeDirectory()}, conf);
      long size = JobDescription.sizeOf(submitDir);
      long most = largestDescription(conf);
      if (size > most) {
        Path staged = stageOnCluster(jobId, submitDir);
        LOG.info("Job " + jobId + " is staged at " + staged + ": its description, " + size
            + " bytes, is over the " + most + " a call carries (a quarter of " + MAX_CALL_BYTES + ")");
        return session.submitJob(jobId, staged.toString(), credentials);
      }
      JobDescription description = JobDescription.read(submitDir);
      LOG.debug("Submitting " + jobId + " as its description (" + description.size() + " bytes)");
      return session.submitDescribedJob(jobId, description, credentials);
    } finally {
      FileUtil.fullyDelete(submitDir);
    }
  }

  /**
   * The largest description sent in a call: a quarter of the largest call Hadoop's RPC servers take
   * ({@code ipc.maximum.data.length}, as the client's configuration of the cluster has it), leaving
   * room for the call's credentials and for the executors' calls that read it back, answered within
   * the same bound.
   */
  static long largestDescription(Configuration conf) {
    return conf.getLong(MAX_CALL_BYTES, CommonConfigurationKeys.IPC_MAXIMUM_DATA_LENGTH_DEFAULT) / 4;
  }

  /**
   * Copies the job's files from {@code submitDir} into its folder of the session's staging area on
   * the cluster's file system (as Hadoop's job client stages them: the folder {@code 0700}, the
   * files {@code 0644}), whence the session reads it and removes it once the job has ended.
   */
  private Path stageOnCluster(JobID jobId, File submitDir) throws IOException, InterruptedException {
    Path area = new Path(session.getStagingAreaDir());
    FileSystem fs = area.getFileSystem(conf);
    if (!fs.exists(area)) {
      FileSystem.mkdirs(fs, area, JobSubmissionFiles.JOB_DIR_PERMISSION);
    }
    Path dir = fs.makeQualified(new Path(area, jobId.toString()));
    FileSystem.mkdirs(fs, dir, JobSubmissionFiles.JOB_DIR_PERMISSION);
    for (String name : JobDescription.FILES) {
      Path file = new Path(dir, name);
      fs.copyFromLocalFile(false, true, new Path(new File(submitDir, name).getAbsoluteFile().toURI()), file);
      fs.setPermission(file, JobSubmissionFiles.JOB_FILE_PERMISSION);
    }
    return dir;
  }

  @Override
  public void close() {
    SessionRpc.close(session);
  }
}
