package io.vivace.cluster.client;

import io.vivace.cluster.security.PrivateFolder;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Job jars on the cluster's file system by their content: {@code <home>/.vivace/jars/<sha-256>.jar}
 * (the folder {@code 0700}, the files {@code 0600}), each uploaded once, whichever job or client
 * needs it. A job whose jar is a local file is pointed at that copy before Hadoop's job client
 * stages it; Hadoop's {@code JobResourceUploader} leaves a jar already on the cluster's file system
 * where it is, so the job's submission writes no jar (one look that the copy is there). A jar
 * changed between two jobs has another digest, so a job never runs an older jar's classes; this JVM
 * knows a local jar's digest by its path, size, time and file key, and reads the jar again when any
 * of them changes.
 */
final class JobJars {

  private static final Logger LOG = LoggerFactory.getLogger(JobJars.class);
  private static final FsPermission FILE = new FsPermission((short) 0600);

  /** This JVM's. */
  static final JobJars JVM = new JobJars();

  /** A local jar as it is now: a new size, time or file (a rename over it) is another jar. */
  private record LocalJar(String path, long size, long modifiedMillis, Object fileKey) {
  }

  private final Map<LocalJar, String> digests = new ConcurrentHashMap<>();

  /**
   * Points {@code conf}'s job jar ({@code mapreduce.job.jar}), when it is a local file, at its
   * copy on the cluster's file system, uploading it if no client has; a jar elsewhere, or none, is
   * left to Hadoop's job client.
   */
  void share(Configuration conf) throws IOException {
    FileSystem fs = FileSystem.get(conf);
    share(conf, fs, new Path(fs.getHomeDirectory(), ".vivace/jars"));
  }

  /** {@link #share(Configuration)} into {@code folder} on {@code fs}. */
  void share(Configuration conf, FileSystem fs, Path folder) throws IOException {
    String jar = conf.get(MRJobConfig.JAR);
    if (jar == null || jar.isBlank()) {
      return;
    }
    URI uri = new Path(jar).toUri();
    if (uri.getScheme() != null && !uri.getScheme().equals("file")) {
      return;
    }
    File local = new File(uri.getPath());
    if (!local.isFile()) {
      return; // Hadoop's job client says what is wrong with it
    }
    Path shared = fs.makeQualified(new Path(folder, digest(local) + ".jar"));
    if (!present(fs, shared, local.length())) {
      upload(fs, local, shared);
    }
    conf.set(MRJobConfig.JAR, shared.toString());
  }

  /** The hex SHA-256 of the jar's bytes, read again only when the file changed. */
  private String digest(File jar) throws IOException {
    BasicFileAttributes attributes = Files.readAttributes(jar.toPath(), BasicFileAttributes.class);
    LocalJar key = new LocalJar(jar.getAbsolutePath(), attributes.size(), attributes.lastModifiedTime().toMillis(),
        attributes.fileKey());
    String known = digests.get(key);
    if (known != null) {
      return known;
    }
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    try (InputStream in = Files.newInputStream(jar.toPath())) {
      byte[] buffer = new byte[64 * 1024];
      for (int n; (n = in.read(buffer)) > 0; ) {
        sha.update(buffer, 0, n);
      }
    }
    String digest = HexFormat.of().formatHex(sha.digest());
    digests.put(key, digest);
    return digest;
  }

  /**
   * Uploads {@code jar} to {@code shared} unless a whole copy is there: written to a temporary
   * file and renamed, so that a reader finds the whole jar or none.
   */
  private static void upload(FileSystem fs, File jar, Path shared) throws IOException {
    Path folder = shared.getParent();
    PrivateFolder.make(fs, folder);
    Path temporary = new Path(folder, "." + shared.getName() + "." + UUID.randomUUID() + ".tmp");
    try {
      try (OutputStream out = fs.create(temporary, FILE, false, 64 * 1024, fs.getDefaultReplication(temporary),
          fs.getDefaultBlockSize(temporary), null)) {
        Files.copy(jar.toPath(), out);
      }
      fs.setPermission(temporary, FILE); // create applies the umask
      if (!fs.rename(temporary, shared)) {
        fs.delete(temporary, false);
        if (!present(fs, shared, jar.length())) { // not another client's upload of the same jar
          throw new IOException("could not rename " + temporary + " to " + shared);
        }
      }
      LOG.info("Uploaded job jar " + jar + " to " + shared);
    } catch (IOException | RuntimeException e) {
      fs.delete(temporary, false);
      throw new IOException("could not upload the job jar " + jar + " to " + shared + ": " + e.getMessage(), e);
    }
  }

  private static boolean present(FileSystem fs, Path shared, long length) throws IOException {
    try {
      FileStatus status = fs.getFileStatus(shared);
      return status.isFile() && status.getLen() == length;
    } catch (java.io.FileNotFoundException e) {
      return false;
    }
  }
}
