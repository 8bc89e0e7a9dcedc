package io.vivace.cluster;

import io.vivace.submit.Submission;
import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a job read back in one of a session's JVMs holds there, given back once the job is over
 * there (an executor told it ended) or refused (the master found it wrong): its local folders, its
 * cached file systems, its class loaders.
 */
public final class ReadBackJobs {

  private static final Logger LOG = LoggerFactory.getLogger(ReadBackJobs.class);

  private ReadBackJobs() {
  }

  public static void release(Submission submission) {
    submission.localDirs().delete();
    try {
      FileSystem.closeAllForUGI(submission.ugi());
      submission.sandbox().close();
      submission.resources().close();
    } catch (IOException e) {
      LOG.debug("closing the resources of " + submission.id(), e);
    }
  }
}
