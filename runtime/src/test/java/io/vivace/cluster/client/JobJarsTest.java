package io.vivace.cluster.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Job jars shared by their content ({@link JobJars}) on Hadoop's raw local file system standing for
 * the cluster's: a local jar is uploaded once under its digest and the job pointed at the copy; the
 * same jar again is not uploaded again; a jar changed in place gets a copy of its own.
 */
class JobJarsTest {

  @TempDir
  File dir;

  private String share(JobJars jars, FileSystem fs, Path folder, String jar) throws Exception {
    Configuration conf = new Configuration(false);
    conf.set(MRJobConfig.JAR, jar);
    jars.share(conf, fs, folder);
    return conf.get(MRJobConfig.JAR);
  }

  @Test
  void aLocalJarIsUploadedOnceUnderItsDigestAndAChangedOneAgain() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration()).getRaw();
    Path folder = new Path(new File(dir, "home/.vivace/jars").getAbsolutePath());
    File jar = new File(dir, "job.jar");
    Files.write(jar.toPath(), new byte[] {1, 2, 3});
    JobJars jars = new JobJars();

    String first = share(jars, fs, folder, jar.getAbsolutePath());
    Path copy = new Path(first);
    assertEquals(fs.makeQualified(folder), copy.getParent());
    assertEquals("039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81.jar", copy.getName());
    File copied = new File(copy.toUri().getPath());
    assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(copied.toPath()));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(copied.toPath())));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(copied.getParentFile().toPath())));

    copied.setLastModified(1_000_000L);
    assertEquals(first, share(new JobJars(), fs, folder, "file://" + jar.getAbsolutePath()),
        "the same jar, from another client");
    assertEquals(1_000_000L, copied.lastModified(), "not uploaded again");

    Files.write(jar.toPath(), new byte[] {4, 5, 6, 7});
    String second = share(jars, fs, folder, jar.getAbsolutePath());
    assertNotEquals(first, second, "a jar changed in place");
    assertArrayEquals(new byte[] {4, 5, 6, 7}, Files.readAllBytes(new File(new Path(second).toUri().getPath()).toPath()));
    assertEquals(2, new File(folder.toUri().getPath()).list().length, "no temporary file left: "
        + String.join(", ", new File(folder.toUri().getPath()).list()));
  }

  @Test
  void jarsElsewhereOrMissingAreLeftToHadoopsJobClient() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration()).getRaw();
    Path folder = new Path(new File(dir, "jars").getAbsolutePath());
    JobJars jars = new JobJars();
    assertEquals("hdfs://nn:8020/apps/job.jar", share(jars, fs, folder, "hdfs://nn:8020/apps/job.jar"));
    String missing = new File(dir, "missing.jar").getAbsolutePath();
    assertEquals(missing, share(jars, fs, folder, missing));
    assertTrue(!new File(dir, "jars").exists(), "nothing uploaded");
  }
}
