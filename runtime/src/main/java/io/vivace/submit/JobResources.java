package io.vivace.submit;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.util.StringUtils;

/**
 * Localises a job's distributed cache and builds its class loader, as a YARN node manager would:
 * cache files are copied (or, when the job client staged them, used in place) readable and
 * executable by their owner only, archives unpacked, all under the job's local directory, and
 * linked under their {@code #fragment} names into the job's working directory (and, through
 * {@link #links}, into every task's); {@code -libjars}, class path files and the job jar go on a
 * class loader whose parent is the submitting client's.
 */
public final class JobResources implements Closeable {

  private static final String WILDCARD = "*";
  /** YARN's permissions for a private localised file: read and execute, for its owner. */
  private static final Set<PosixFilePermission> LOCALISED = PosixFilePermissions.fromString("r-x------");

  private final File workDir;
  private final Map<String, File> links;
  private final URLClassLoader classLoader;

  private JobResources(File workDir, Map<String, File> links, URLClassLoader classLoader) {
    this.workDir = workDir;
    this.links = links;
    this.classLoader = classLoader;
  }

  /** The job's working directory: where relative paths of the job's own steps resolve. */
  public File workDir() {
    return workDir;
  }

  /** What a working directory of the job holds: link name -> localised file or unpacked archive. */
  public Map<String, File> links() {
    return links;
  }

  /** The job's class loader, or null when the job needs none beyond the client's. */
  public ClassLoader classLoader() {
    return classLoader;
  }

  /**
   * Localises the cache of {@code conf} under {@code jobDir}; records the local paths in
   * {@code mapreduce.job.cache.local.files/archives} and sets the job class loader on the conf.
   * Files the job client staged under {@code submitDir} are used where they are.
   */
  public static JobResources localize(JobConf conf, File jobDir, Path submitDir, ClassLoader parent)
      throws IOException {
    File workDir = new File(jobDir, "work");
    mkdirs(workDir);
    Localizer localizer = new Localizer(conf, jobDir, submitDir);
    Map<String, File> localized = new LinkedHashMap<>();
    Map<String, File> links = new LinkedHashMap<>();
    List<String> localFiles = new ArrayList<>();
    for (URI uri : uris(conf.getStrings(MRJobConfig.CACHE_FILES))) {
      Path path = new Path(uri.getScheme(), uri.getAuthority(), uri.getPath());
      if (WILDCARD.equals(path.getName())) {
        continue;
      }
      File local = localizer.fileOf(path);
      localized.put(path.toUri().getPath(), local);
      localFiles.add(local.getAbsolutePath());
      links.putIfAbsent(uri.getFragment() != null ? uri.getFragment() : path.getName(), local);
    }
    List<String> localArchives = new ArrayList<>();
    for (URI uri : uris(conf.getStrings(MRJobConfig.CACHE_ARCHIVES))) {
      Path path = new Path(uri.getScheme(), uri.getAuthority(), uri.getPath());
      File unpacked = localizer.unpacked(path);
      localized.put(path.toUri().getPath(), unpacked);
      localArchives.add(unpacked.getAbsolutePath());
      links.putIfAbsent(uri.getFragment() != null ? uri.getFragment() : path.getName(), unpacked);
    }
    for (Map.Entry<String, File> link : links.entrySet()) {
      link(workDir, link.getKey(), link.getValue());
    }
    if (!localFiles.isEmpty()) {
      conf.set(MRJobConfig.CACHE_LOCALFILES, StringUtils.join(",", localFiles));
    }
    if (!localArchives.isEmpty()) {
      conf.set(MRJobConfig.CACHE_LOCALARCHIVES, StringUtils.join(",", localArchives));
    }
    List<URL> classpath = new ArrayList<>();
    addJobJar(conf, submitDir, localizer, classpath);
    for (String entry : strings(conf.getStrings(MRJobConfig.CLASSPATH_FILES))) {
      addClasspathEntry(new Path(entry), conf, localizer, localized, classpath);
    }
    for (String entry : strings(conf.getStrings(MRJobConfig.CLASSPATH_ARCHIVES))) {
      Path path = new Path(entry);
      File local = localized.get(path.toUri().getPath());
      if (local != null) {
        classpath.add(local.toURI().toURL());
      }
    }
    URLClassLoader loader = null;
    if (!classpath.isEmpty()) {
      loader = new URLClassLoader(classpath.toArray(new URL[0]), parent);
      conf.setClassLoader(loader);
    } else {
      conf.setClassLoader(parent);
    }
    return new JobResources(workDir, links, loader);
  }

  /**
   * The job jar: Hadoop's job client stages it as {@code <submit dir>/job.jar} with the scheme of
   * its file system left out (JobResourceUploader strips it), so a path without one is on the file
   * system the job was staged on: HDFS for a session, {@code vivace-staging} for the embedded
   * engine (YARNRunner takes the default file system, which is where it stages). The client
   * staged the jar the job names, so a missing one is an error, not a job without its classes.
   */
  private static void addJobJar(JobConf conf, Path submitDir, Localizer localizer, List<URL> classpath)
      throws IOException {
    String jar = conf.get(MRJobConfig.JAR);
    if (jar == null) {
      return;
    }
    Path path = new Path(jar);
    if (path.toUri().getScheme() == null) {
      FileSystem staging = submitDir != null ? submitDir.getFileSystem(conf) : FileSystem.getLocal(conf);
      path = staging.makeQualified(path);
    }
    File local;
    try {
      local = localizer.classPathFile(path); // looks at the file once, local or remote
    } catch (java.io.FileNotFoundException e) {
      throw new java.io.FileNotFoundException("The job jar " + path + " (" + MRJobConfig.JAR + ") does not exist");
    }
    classpath.add(local.toURI().toURL());
  }

  private static void addClasspathEntry(Path path, JobConf conf, Localizer localizer, Map<String, File> localized,
                                        List<URL> classpath) throws IOException {
    if (WILDCARD.equals(path.getName())) {
      Path dir = path.getParent();
      FileSystem fs = dir.getFileSystem(conf);
      for (org.apache.hadoop.fs.FileStatus status : fs.listStatus(dir)) {
        if (status.isFile()) {
          classpath.add(localizer.classPathFile(status.getPath()).toURI().toURL());
        }
      }
      return;
    }
    File local = localized.get(path.toUri().getPath());
    if (local == null) {
      local = localizer.classPathFile(path);
    }
    classpath.add(local.toURI().toURL());
  }

  /**
   * Where the job's cache files and archives go: {@code <job dir>/cache/<n>/<name>}, made readable
   * and executable by their owner only (so a script shipped with {@code -files} can be run, as on
   * YARN); the job's originals elsewhere are never changed.
   */
  private static final class Localizer {
    private final JobConf conf;
    private final File jobDir;
    private final String stagingDir;
    private int n;

    Localizer(JobConf conf, File jobDir, Path submitDir) {
      this.conf = conf;
      this.jobDir = jobDir;
      this.stagingDir = submitDir == null ? null : submitDir.toUri().getPath();
    }

    /** A cache file, local and executable by its owner: a copy unless the job client staged it. */
    File fileOf(Path path) throws IOException {
      FileSystem fs = path.getFileSystem(conf);
      File file = isLocal(fs) && isStaged(existing(fs, path)) ? existing(fs, path) : copy(fs, path);
      Files.setPosixFilePermissions(file.toPath(), LOCALISED);
      return file;
    }

    /** An archive unpacked into a folder of its own, named after it. */
    File unpacked(Path path) throws IOException {
      File dir = new File(jobDir, "archives/" + (n++) + "/" + path.getName());
      unpack(classPathFile(path), dir);
      return dir;
    }

    /**
     * A file only read (job jar, -libjars, an archive to unpack): where it is when it is local, else
     * this JVM's copy of it ({@link RemoteClassPathFiles}).
     */
    File classPathFile(Path path) throws IOException {
      FileSystem fs = path.getFileSystem(conf);
      return isLocal(fs) ? existing(fs, path) : RemoteClassPathFiles.JVM.copyOf(fs, path, jobDir.getParentFile());
    }

    private boolean isStaged(File file) {
      return stagingDir != null && file.toPath().startsWith(stagingDir);
    }

    private File copy(FileSystem fs, Path path) throws IOException {
      File dir = new File(jobDir, "cache/" + (n++));
      mkdirs(dir);
      File local = new File(dir, path.getName());
      fs.copyToLocalFile(false, path, new Path(local.getAbsolutePath()), true);
      return local;
    }

    private static File existing(FileSystem fs, Path path) throws IOException {
      File file = new File(fs.makeQualified(path).toUri().getPath());
      if (!file.exists()) {
        throw new java.io.FileNotFoundException("distributed cache file " + path + " does not exist");
      }
      return file;
    }

    private static boolean isLocal(FileSystem fs) {
      return fs instanceof org.apache.hadoop.fs.LocalFileSystem
          || fs instanceof org.apache.hadoop.fs.RawLocalFileSystem;
    }

    private static void unpack(File archive, File dir) throws IOException {
      mkdirs(dir);
      String name = archive.getName().toLowerCase();
      if (name.endsWith(".jar") || name.endsWith(".zip")) {
        FileUtil.unZip(archive, dir);
      } else if (name.endsWith(".tar") || name.endsWith(".tar.gz") || name.endsWith(".tgz")) {
        FileUtil.unTar(archive, dir);
      } else {
        throw new IOException("Cannot unpack archive " + archive + ": not a jar, zip, tar, tar.gz or tgz");
      }
    }
  }

  private static void link(File workDir, String name, File target) throws IOException {
    File link = new File(workDir, name);
    if (Files.exists(link.toPath(), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Files.createSymbolicLink(link.toPath(), target.getAbsoluteFile().toPath());
  }

  private static void mkdirs(File dir) throws IOException {
    if (!dir.isDirectory() && !dir.mkdirs() && !dir.isDirectory()) {
      throw new IOException("Cannot create directory " + dir);
    }
  }

  private static List<URI> uris(String[] values) throws IOException {
    List<URI> result = new ArrayList<>();
    for (String v : strings(values)) {
      try {
        result.add(new URI(v));
      } catch (java.net.URISyntaxException e) {
        throw new IOException("Bad distributed cache URI " + v, e);
      }
    }
    return result;
  }

  private static String[] strings(String[] values) {
    return values == null ? new String[0] : values;
  }

  @Override
  public void close() throws IOException {
    if (classLoader != null) {
      classLoader.close();
    }
  }
}
