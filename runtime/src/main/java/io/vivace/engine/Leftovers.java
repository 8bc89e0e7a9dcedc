package io.vivace.engine;

import io.vivace.history.JobHistoryWriter;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What engines that died with jobs running (killed with SIGKILL, a crash, a power cut) left behind:
 * for each of their recorded jobs, its local folders, its staging folder, the {@code _temporary}
 * folder in its output, and its history, which is ended as {@code LOST}. Run by each new engine on
 * the same {@code hadoop.tmp.dir}; a live engine's files are never touched, since its lock is held.
 */
final class Leftovers {

  private static final Logger LOG = LoggerFactory.getLogger(Leftovers.class);

  private Leftovers() {
  }

  /** Collects the leftovers of every dead engine under {@code root}, except {@code self}'s folder. */
  static void collect(File root, String self, Configuration conf) {
    File[] claims = root.listFiles(File::isDirectory);
    if (claims == null) {
      return;
    }
    for (File claim : claims) {
      if (!claim.getName().equals(self) && EngineLease.isDead(claim)) {
        collectEngine(claim, conf);
      }
    }
  }

  private static void collectEngine(File claim, Configuration conf) {
    File[] records = new File(claim, EngineLease.JOBS).listFiles((dir, name) -> name.endsWith(".properties"));
    for (File record : records == null ? new File[0] : records) {
      String jobId = record.getName().substring(0, record.getName().length() - ".properties".length());
      try (InputStream in = new FileInputStream(record)) {
        Properties p = new Properties();
        p.load(in);
        collectJob(jobId, EngineLease.JobFiles.of(p), claim, conf);
      } catch (IOException | RuntimeException e) {
        LOG.warn("cannot remove what job " + jobId + " left behind (recorded in " + record + "): " + e);
      }
    }
    if (!FileUtil.fullyDelete(claim)) {
      LOG.warn("cannot remove the folder of a dead engine: " + claim);
    }
  }

  private static void collectJob(String jobId, EngineLease.JobFiles files, File claim, Configuration conf)
      throws IOException {
    LOG.info("Removing what job " + jobId + " left behind: its engine (" + claim + ") died while it ran");
    for (String dir : files.localDirs().split(",")) {
      if (!dir.isEmpty()) {
        FileUtil.fullyDelete(new File(dir));
      }
    }
    if (!files.stagingDir().isEmpty()) {
      Path staging = new Path(files.stagingDir());
      staging.getFileSystem(conf).delete(staging, true);
    }
    if (files.outputDir() != null) {
      Path temporary = new Path(files.outputDir(), "_temporary");
      temporary.getFileSystem(conf).delete(temporary, true);
    }
    File history = new File(files.historyDir());
    if (JobHistoryWriter.temporaryFile(history, jobId).isFile()) {
      JobHistoryWriter.markLost(history, jobId, System.currentTimeMillis(),
          "the engine running the job (" + claim.getName() + ") ended before the job did");
    }
  }
}
