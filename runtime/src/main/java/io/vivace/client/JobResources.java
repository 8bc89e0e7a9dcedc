package io.vivace.client;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.util.StringUtils;

/**
 * Localises a job's distributed cache and builds its class loader. Cache files and unpacked
 * archives are linked into the job's working directory under their {@code #fragment} names (as a
 * YARN container's working directory would have them); {@code -libjars}, classpath files and
 * the job jar go on a class loader whose parent is the submitting client's.
 */
public final class JobResources implements Closeable {

  private static final String WILDCARD = "*";

  private final File workDir;
  private final URLClassLoader classLoader;

  private JobResources(File workDir, URLClassLoader classLoader) {
    this.workDir = workDir;
    this.classLoader = classLoader;
  }

  /** The job's working directory: where relative paths of the local file system resolve. */
  public File workDir() {
    return workDir;
  }

  /** The job's class loader, or null when the job needs none beyond the client's. */
  public ClassLoader classLoader() {
    return classLoader;
  }

  /**
   * Localises the cache of {@code conf} under {@code jobDir}; records the local paths in
   * {@code mapreduce.job.cache.local.files/archives} and sets the job class loader on the conf.
   */
  public static JobResources localize(JobConf conf, File jobDir, ClassLoader parent) throws IOException {
    File workDir = new File(jobDir, "work");
    mkdirs(workDir);
    Map<String, File> localized = new LinkedHashMap<>();
    List<String> localFiles = new ArrayList<>();
    int n = 0;
    for (URI uri : uris(conf.getStrings(MRJobConfig.CACHE_FILES))) {
      Path path = new Path(uri.getScheme(), uri.getAuthority(), uri.getPath());
      if (WILDCARD.equals(path.getName())) {
        continue;
      }
      File local = fetch(path, conf, new File(jobDir, "cache/" + (n++)));
      localized.put(path.toUri().getPath(), local);
      localFiles.add(local.getAbsolutePath());
      link(workDir, uri.getFragment() != null ? uri.getFragment() : path.getName(), local);
    }
    List<String> localArchives = new ArrayList<>();
    for (URI uri : uris(conf.getStrings(MRJobConfig.CACHE_ARCHIVES))) {
      Path path = new Path(uri.getScheme(), uri.getAuthority(), uri.getPath());
      File archive = fetch(path, conf, new File(jobDir, "cache/" + (n++)));
      File unpacked = new File(jobDir, "archives/" + (n++) + "/" + path.getName());
      unpack(archive, unpacked);
      localized.put(path.toUri().getPath(), unpacked);
      localArchives.add(unpacked.getAbsolutePath());
      link(workDir, uri.getFragment() != null ? uri.getFragment() : path.getName(), unpacked);
    }
    if (!localFiles.isEmpty()) {
      conf.set(MRJobConfig.CACHE_LOCALFILES, StringUtils.join(",", localFiles));
    }
    if (!localArchives.isEmpty()) {
      conf.set(MRJobConfig.CACHE_LOCALARCHIVES, StringUtils.join(",", localArchives));
    }
    List<URL> classpath = new ArrayList<>();
    addJobJar(conf, jobDir, classpath);
    for (String entry : strings(conf.getStrings(MRJobConfig.CLASSPATH_FILES))) {
      addClasspathEntry(new Path(entry), conf, jobDir, localized, classpath, n++);
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
    return new JobResources(workDir, loader);
  }

  private static void addJobJar(JobConf conf, File jobDir, List<URL> classpath) throws IOException {
    String jar = conf.get(MRJobConfig.JAR);
    if (jar == null) {
      return;
    }
    Path path = new Path(jar);
    if (path.toUri().getScheme() == null) {
      path = FileSystem.getLocal(conf).makeQualified(path);
    }
    FileSystem fs = path.getFileSystem(conf);
    if (fs.exists(path)) {
      classpath.add(fetch(path, conf, new File(jobDir, "jobjar")).toURI().toURL());
    }
  }

  private static void addClasspathEntry(Path path, JobConf conf, File jobDir, Map<String, File> localized,
                                        List<URL> classpath, int n) throws IOException {
    if (WILDCARD.equals(path.getName())) {
      Path dir = path.getParent();
      FileSystem fs = dir.getFileSystem(conf);
      for (org.apache.hadoop.fs.FileStatus status : fs.listStatus(dir)) {
        if (status.isFile()) {
          classpath.add(fetch(status.getPath(), conf, new File(jobDir, "classpath/" + n)).toURI().toURL());
        }
      }
      return;
    }
    File local = localized.get(path.toUri().getPath());
    if (local == null) {
      local = fetch(path, conf, new File(jobDir, "classpath/" + n));
    }
    classpath.add(local.toURI().toURL());
  }

  /** A local file with the content of {@code path}: the file itself when it is already local. */
  private static File fetch(Path path, JobConf conf, File targetDir) throws IOException {
    FileSystem fs = path.getFileSystem(conf);
    if (isLocal(fs)) {
      File file = new File(fs.makeQualified(path).toUri().getPath());
      if (!file.exists()) {
        throw new java.io.FileNotFoundException("distributed cache file " + path + " does not exist");
      }
      return file;
    }
    mkdirs(targetDir);
    File local = new File(targetDir, path.getName());
    fs.copyToLocalFile(false, path, new Path(local.getAbsolutePath()), true);
    return local;
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
