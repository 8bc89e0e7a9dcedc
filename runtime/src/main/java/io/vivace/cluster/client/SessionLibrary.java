package io.vivace.cluster.client;

import io.vivace.conf.VivaceConf;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Vivace's jars for a session's containers: the jars of this JVM's class path (the runtime and its
 * dependencies, as {@code ./vivace} puts them there) in one zip on the cluster's file system, which
 * YARN unpacks into each container as {@value #LINK}. Made once per set of jars (its name is a
 * digest of their names, sizes and times) and shared by later sessions; or given ready-made with
 * {@code vivace.session.lib.uri}.
 */
final class SessionLibrary {

  static final String LINK = "vivace-lib";

  private SessionLibrary() {
  }

  /** The library's path on {@code fs}, uploaded if no session made it before. */
  static Path upload(Configuration conf, FileSystem fs) throws IOException {
    if (VivaceConf.isSet(conf, "vivace.session.lib.uri")) {
      Path given = new Path(VivaceConf.get(conf, "vivace.session.lib.uri"));
      if (!given.getFileSystem(conf).exists(given)) {
        throw new IOException("vivace.session.lib.uri=" + given + " does not exist");
      }
      return given;
    }
    return upload(fs, new Path(fs.getHomeDirectory(), ".vivace/lib"), classPathJars());
  }

  /** The library of {@code jars} in {@code folder} of {@code fs}, uploaded if no session made it before. */
  static Path upload(FileSystem fs, Path folder, List<File> jars) throws IOException {
    Path archive = fs.makeQualified(new Path(folder, "vivace-lib-" + digest(jars) + ".zip"));
    if (fs.exists(archive)) {
      return archive;
    }
    Path tmp = new Path(archive.getParent(), "." + archive.getName() + "." + System.nanoTime() + ".tmp");
    fs.mkdirs(archive.getParent());
    try (OutputStream file = fs.create(tmp, true); ZipOutputStream zip = new ZipOutputStream(file)) {
      zip.setLevel(0); // jars are compressed already
      for (File jar : jars) {
        zip.putNextEntry(new ZipEntry(jar.getName()));
        Files.copy(jar.toPath(), zip);
        zip.closeEntry();
      }
    }
    if (!fs.rename(tmp, archive)) {
      fs.delete(tmp, false); // another session made it meanwhile
    }
    return archive;
  }

  private static List<File> classPathJars() {
    return jarsOf(System.getProperty("java.class.path"));
  }

  /**
   * The jars of a class path, one per file name, the first of each name (the one the JVM reads
   * first): a jar named twice, as by a {@code HADOOP_CLASSPATH} that repeats the launcher's, is
   * zipped once, under its name.
   */
  static List<File> jarsOf(String classPath) {
    Map<String, File> byName = new LinkedHashMap<>();
    for (String entry : classPath.split(File.pathSeparator)) {
      File file = new File(entry);
      if (file.isFile() && entry.endsWith(".jar")) {
        byName.putIfAbsent(file.getName(), file);
      }
    }
    return new ArrayList<>(byName.values());
  }

  private static String digest(List<File> jars) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (File jar : jars) {
        sha.update((jar.getName() + "|" + jar.length() + "|" + jar.lastModified() + "\n")
            .getBytes(StandardCharsets.UTF_8));
      }
      return HexFormat.of().formatHex(sha.digest(), 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
