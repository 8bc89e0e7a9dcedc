package io.vivace.localdisk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job's folders on every {@code mapreduce.cluster.local.dir}, on the real local file system. */
class LocalDirsTest {

  @TempDir
  Path root;

  private File dir(String name) {
    return root.resolve(name).toFile();
  }

  @Test
  void everyListedFolderGetsTheJobsFolderAndLosesItOnDelete() throws IOException {
    Configuration conf = new Configuration(false);
    conf.set(MRConfig.LOCAL_DIR, dir("a") + ", file:" + dir("b") + "," + dir("a") + "/ ,file://" + dir("c"));
    File stale = new File(dir("b"), "vivace/job_7_0001/old-spill.out");
    assertTrue(stale.getParentFile().mkdirs());
    Files.writeString(stale.toPath(), "left by a dead engine");

    LocalDirs dirs = LocalDirs.create(conf, "job_7_0001");
    List<File> expected = List.of(new File(dir("a"), "vivace/job_7_0001"), new File(dir("b"), "vivace/job_7_0001"),
        new File(dir("c"), "vivace/job_7_0001"));
    assertEquals(expected, dirs.dirs(), "each folder once, in the listed order");
    assertEquals(expected.get(0), dirs.jobDir());
    for (File d : expected) {
      assertTrue(d.isDirectory(), d + " made");
      assertEquals(0, d.list().length, d + " starts empty");
    }

    dirs.delete();
    for (File d : expected) {
      assertFalse(d.exists(), d + " removed");
      assertTrue(d.getParentFile().isDirectory(), "only the job's own folder goes: " + d.getParentFile());
    }
  }

  @Test
  void withoutTheSettingHadoopsDefaultUnderHadoopTmpDirIsUsed() throws IOException {
    Configuration conf = new Configuration(false);
    conf.set("hadoop.tmp.dir", dir("tmp").getPath());
    LocalDirs dirs = LocalDirs.create(conf, "job_7_0002");
    assertEquals(List.of(new File(dir("tmp"), "mapred/local/vivace/job_7_0002")), dirs.dirs());
    dirs.delete();
  }

  /** A folder below a regular file: it cannot be made, not even by root. */
  private File unusable(String name) throws IOException {
    Path file = root.resolve("plain-file");
    if (!Files.exists(file)) {
      Files.writeString(file, "x");
    }
    return new File(file.toFile(), name);
  }

  @Test
  void anUnusableFolderIsLeftOutWhileAnotherWorks() throws IOException {
    Configuration conf = new Configuration(false);
    conf.set(MRConfig.LOCAL_DIR, unusable("local") + "," + dir("good"));
    LocalDirs dirs = LocalDirs.create(conf, "job_7_0003");
    assertEquals(List.of(new File(dir("good"), "vivace/job_7_0003")), dirs.dirs());
    dirs.delete();
  }

  @Test
  void whenNoFolderIsUsableTheErrorNamesEachAndTheSetting() throws IOException {
    File bad1 = unusable("local1");
    File bad2 = unusable("local2");
    Configuration conf = new Configuration(false);
    conf.set(MRConfig.LOCAL_DIR, bad1 + "," + bad2);
    IOException e = assertThrows(IOException.class, () -> LocalDirs.create(conf, "job_7_0004"));
    String message = e.getMessage();
    assertTrue(message.contains(bad1.getPath()) && message.contains(bad2.getPath()), message);
    assertTrue(message.contains(MRConfig.LOCAL_DIR), message);
    assertTrue(message.contains("job_7_0004"), message);
  }
}
