package io.vivace.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task's configuration behaves like a copy of the job's (Hadoop's own copy constructor is the
 * reference) while the job's stays untouched.
 */
class TaskConfTest {

  @TempDir
  java.nio.file.Path dir;

  private JobConf job;

  /** A job configuration loaded from a job.xml file, as the engine loads it. */
  @BeforeEach
  void loadJob() throws Exception {
    JobConf written = new JobConf(new Configuration());
    written.set("vivace.test.a", "1");
    written.set("vivace.test.b", "2");
    written.set("vivace.test.ref", "${vivace.test.a}-x");
    java.nio.file.Path xml = dir.resolve("job.xml");
    try (var out = Files.newOutputStream(xml)) {
      written.writeXml(out);
    }
    job = new JobConf(false);
    job.addResource(new Path(xml.toUri()));
    job.size();
  }

  private static Map<String, String> entries(Configuration conf) {
    Map<String, String> all = new TreeMap<>();
    for (Map.Entry<String, String> e : conf) {
      all.put(e.getKey(), e.getValue());
    }
    return all;
  }

  private static void change(Configuration conf) {
    conf.set("vivace.test.a", "10");
    conf.set("mapreduce.task.attempt.id", "attempt_1_0001_m_000000_0");
    conf.unset("vivace.test.b");
  }

  @Test
  void readsSetsAndUnsetsLikeACopy() {
    JobConf task = TaskConf.of(job);
    JobConf copy = new JobConf(job);
    change(task);
    change(copy);
    for (String key : new String[] {"vivace.test.a", "vivace.test.b", "vivace.test.ref",
        "mapreduce.task.attempt.id", "mapreduce.job.reduces", "no.such.key"}) {
      assertEquals(copy.get(key), task.get(key), key);
    }
    assertEquals(entries(copy), entries(task));
    assertEquals(copy.size(), task.size());
    assertEquals(copy.getValByRegex("^vivace\\.test\\..*"), task.getValByRegex("^vivace\\.test\\..*"));
  }

  /** What Hadoop's {@code LineRecordReader} asks each map's configuration for, before anything else iterates it. */
  @Test
  void namesByPrefixAreThoseOfACopyAndFollowLaterChanges() {
    JobConf task = TaskConf.of(job);
    JobConf copy = new JobConf(job);
    change(task);
    change(copy);
    assertEquals(copy.getPropsWithPrefix("vivace.test."), task.getPropsWithPrefix("vivace.test."));
    assertEquals(Map.of("a", "10", "ref", "10-x"), task.getPropsWithPrefix("vivace.test."));
    task.set("vivace.test.c", "3");
    task.unset("vivace.test.a");
    copy.set("vivace.test.c", "3");
    copy.unset("vivace.test.a");
    assertEquals(copy.getPropsWithPrefix("vivace.test."), task.getPropsWithPrefix("vivace.test."));
    assertEquals(entries(copy), entries(task));
  }

  @Test
  void leavesTheJobsConfigurationAlone() {
    Map<String, String> before = entries(job);
    JobConf task = TaskConf.of(job);
    change(task);
    task.size();
    task.set("vivace.test.after", "3");
    assertEquals(before, entries(job));
    assertNull(job.get("vivace.test.after"));
  }

  @Test
  void copiesOfATaskConfigurationAreWhole() {
    JobConf task = TaskConf.of(job);
    change(task);
    Configuration copy = new Configuration(task);
    assertEquals(entries(task), entries(copy));
    assertEquals("10", new JobConf(task).get("vivace.test.a"));
  }

  @Test
  void addingAResourceReloadsTheJobsKeysAndKeepsTheTasks() throws Exception {
    JobConf task = TaskConf.of(job);
    change(task);
    Configuration extra = new Configuration(false);
    extra.set("vivace.test.extra", "e");
    java.nio.file.Path xml = dir.resolve("extra.xml");
    try (var out = Files.newOutputStream(xml)) {
      extra.writeXml(out);
    }
    JobConf copy = new JobConf(job);
    change(copy);
    task.addResource(new Path(xml.toUri()));
    copy.addResource(new Path(xml.toUri()));
    assertEquals("e", task.get("vivace.test.extra"));
    assertEquals(entries(copy), entries(task));
  }

  @Test
  void writesTheSameXmlAsACopy() throws Exception {
    JobConf task = TaskConf.of(job);
    JobConf copy = new JobConf(job);
    change(task);
    change(copy);
    ByteArrayOutputStream a = new ByteArrayOutputStream();
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    task.writeXml(a);
    copy.writeXml(b);
    JobConf fromTask = new JobConf(false);
    fromTask.addResource(new java.io.ByteArrayInputStream(a.toByteArray()));
    JobConf fromCopy = new JobConf(false);
    fromCopy.addResource(new java.io.ByteArrayInputStream(b.toByteArray()));
    assertEquals(entries(fromCopy), entries(fromTask));
  }

  @Test
  void keepsTheJobsClassLoaderAndCredentials() {
    ClassLoader loader = new java.net.URLClassLoader(new java.net.URL[0]);
    job.setClassLoader(loader);
    JobConf task = TaskConf.of(job);
    assertSame(loader, task.getClassLoader());
    assertSame(job.getCredentials(), task.getCredentials());
  }
}
