package io.vivace.submit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vivace.testing.StagedJob;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.security.Credentials;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's HDFS client asks sooner whether a file it closes is complete, unless the job chose how
 * it retries: Hadoop's defaults are shortened, whether unset or carried by a job.xml written whole,
 * and a job's own values of either key are left as they are.
 */
class HdfsCloseRetriesTest {

  @TempDir
  Path dir;

  @Test
  void hadoopsDefaultsAreShortenedWhetherUnsetOrCarriedByAWholeConfiguration() throws Exception {
    Configuration unset = new Configuration(false);
    HdfsCloseRetries.shorten(unset);
    assertEquals(10, unset.getInt(HdfsCloseRetries.FIRST_WAIT, -1));
    assertEquals(11, unset.getInt(HdfsCloseRetries.RETRIES_KEY, -1));

    Configuration client = new Configuration(false); // a cluster's client: HDFS's defaults file loaded
    client.addResource(new ByteArrayInputStream(("<configuration>"
        + "<property><name>" + HdfsCloseRetries.FIRST_WAIT + "</name><value>400</value></property>"
        + "<property><name>" + HdfsCloseRetries.RETRIES_KEY + "</name><value>5</value></property>"
        + "</configuration>").getBytes(java.nio.charset.StandardCharsets.UTF_8)), "hdfs-default.xml");
    Configuration whole = readBack(client);
    assertEquals(400, whole.getInt(HdfsCloseRetries.FIRST_WAIT, -1), "carried by the job.xml");
    HdfsCloseRetries.shorten(whole);
    assertEquals(10, whole.getInt(HdfsCloseRetries.FIRST_WAIT, -1));
    assertEquals(11, whole.getInt(HdfsCloseRetries.RETRIES_KEY, -1));
  }

  @Test
  void aJobsOwnChoiceOfEitherKeyIsKeptWithTheOther() throws Exception {
    Configuration ownWait = new Configuration(false);
    ownWait.setInt(HdfsCloseRetries.FIRST_WAIT, 400);
    ownWait = readBackThenShortened(ownWait);
    assertEquals(400, ownWait.getInt(HdfsCloseRetries.FIRST_WAIT, -1));
    assertNull(ownWait.get(HdfsCloseRetries.RETRIES_KEY));

    Configuration ownRetries = new Configuration(false);
    ownRetries.setInt(HdfsCloseRetries.RETRIES_KEY, 8);
    HdfsCloseRetries.shorten(ownRetries);
    assertEquals(8, ownRetries.getInt(HdfsCloseRetries.RETRIES_KEY, -1));
    assertNull(ownRetries.get(HdfsCloseRetries.FIRST_WAIT));
  }

  @Test
  void aJobReadBackForItsTasksHasTheShorterWaits() throws Exception {
    StagedJob staged = StagedJob.stage(dir, "1700000000000", 1, List.of(new String[0][0]), 1);
    Configuration clientConf = new Configuration();
    clientConf.set(MRConfig.LOCAL_DIR, dir.resolve("local").toString());
    Submission submission = SubmissionLoader.load(staged.id(), staged.submitDir().toString(), new Credentials(),
        clientConf);
    try {
      assertEquals(10, submission.conf().getInt(HdfsCloseRetries.FIRST_WAIT, -1));
      assertEquals(11, submission.conf().getInt(HdfsCloseRetries.RETRIES_KEY, -1));
    } finally {
      submission.localDirs().delete();
      submission.sandbox().close();
    }
  }

  /** {@code conf} as a job.xml written from it reads back: each value with the sources it had. */
  private static Configuration readBack(Configuration conf) throws Exception {
    ByteArrayOutputStream xml = new ByteArrayOutputStream();
    conf.writeXml(xml);
    Configuration read = new Configuration(false);
    read.addResource(new ByteArrayInputStream(xml.toByteArray()), "job.xml");
    read.size();
    return read;
  }

  private static Configuration readBackThenShortened(Configuration conf) throws Exception {
    Configuration read = readBack(conf);
    HdfsCloseRetries.shorten(read);
    return read;
  }
}
