package io.vivace.cluster.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vivace.scheduler.JobRun;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.mapred.JobConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session's jobs keep their task outputs under {@code _temporary} until the job commits (file
 * output committer algorithm 1) unless the job chose an algorithm: a session that dies half-way
 * then leaves no part of a job's output in its output folder.
 */
class SessionCommitTest {

  private static final String ALGORITHM = "mapreduce.fileoutputcommitter.algorithm.version";

  @TempDir
  Path dir;

  @Test
  void aJobWhoseClientFileCarriesHadoopsDefaultAlgorithmCommitsOnlyAtTheEnd() throws Exception {
    Path clientFile = dir.resolve("client.xml"); // a client file written from a whole configuration
    try (OutputStream out = Files.newOutputStream(clientFile)) {
      new JobConf().writeXml(out);
    }
    try (SessionHarness s = new SessionHarness(dir, 0)) {
      JobRun job = s.submit(1, 0, conf -> conf.addResource(new org.apache.hadoop.fs.Path(clientFile.toUri())));
      assertEquals(1, job.submission().conf().getInt(ALGORITHM, 0));
    }
  }

  @Test
  void aJobThatChoseAnAlgorithmKeepsIt() throws Exception {
    try (SessionHarness s = new SessionHarness(dir, 0)) {
      JobRun job = s.submit(1, 0, conf -> conf.setInt(ALGORITHM, 2));
      assertEquals(2, job.submission().conf().getInt(ALGORITHM, 0));
    }
  }
}
