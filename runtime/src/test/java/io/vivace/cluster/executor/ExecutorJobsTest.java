package io.vivace.cluster.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.ContainerDirs;
import io.vivace.cluster.rpc.AttemptAssignment;
import io.vivace.shuffle.ShuffleMemory;
import io.vivace.submit.Submission;
import io.vivace.testing.StagedJob;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.security.Credentials;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two executors of one session on one node: YARN gives them the same application folders, and each
 * reads every job it runs back into its own folder there ({@link ContainerDirs}), so that loading
 * the same job at the same moment, and finishing it while the other still reads it, never shows one
 * the other's half-written {@code job.xml} or half-unpacked cache.
 */
class ExecutorJobsTest {

  private static final int ROUNDS = 20;

  @TempDir
  Path dir;

  private ExecutorJobs executor(Path yarnLocalDirs, String container) {
    Configuration conf = new Configuration();
    conf.set(MRConfig.LOCAL_DIR, ContainerDirs.of(yarnLocalDirs.toString(), container));
    return new ExecutorJobs(conf, new ShuffleMemory(16 << 20));
  }

  private static AttemptAssignment firstMapOf(StagedJob job) {
    return new AttemptAssignment(job.id().toString(), job.submitDir().toString(), new Credentials(),
        "attempt_" + job.id().toString().substring(4) + "_m_000000_0", true, 0, List.of());
  }

  @Test
  void twoExecutorsOnOneNodeLoadTheSameJobAtOnceManyTimes() throws Exception {
    Path application = dir.resolve("nm-local-dir/usercache/alice/appcache/application_1_0001");
    Files.createDirectories(application);
    ExecutorJobs first = executor(application, "container_1_0001_01_000002");
    ExecutorJobs second = executor(application, "container_1_0001_01_000003");
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      for (int round = 1; round <= ROUNDS; round++) {
        StagedJob job = StagedJob.stage(dir, "1", round, List.of(new String[0], new String[0]), 1);
        CyclicBarrier together = new CyclicBarrier(2);
        List<Future<File>> loads = new ArrayList<>();
        for (ExecutorJobs executor : List.of(first, second)) {
          loads.add(threads.submit(() -> {
            together.await(1, TimeUnit.MINUTES);
            Submission loaded = executor.job(firstMapOf(job)).local().submission();
            assertWhole(loaded, job);
            File jobDir = loaded.jobDir();
            executor.finished(job.id().toString()); // while the other may still be reading it back
            return jobDir;
          }));
        }
        File one = loads.get(0).get(1, TimeUnit.MINUTES);
        File other = loads.get(1).get(1, TimeUnit.MINUTES);
        assertNotEquals(one, other, "the two executors' folders of " + job.id());
        assertTrue(one.toPath().startsWith(application.resolve("container_1_0001_01_000002")), one.toString());
        assertTrue(other.toPath().startsWith(application.resolve("container_1_0001_01_000003")), other.toString());
        assertTrue(!one.exists() && !other.exists(), "each job folder is gone once its job finished there");
      }
    } finally {
      threads.shutdownNow();
    }
  }

  /**
   * A job the session holds as its description is read from that, written into the executor's own
   * folder, not from the staging folder its assignment names (on a session there is none); the
   * folder goes when the job is over there.
   */
  @Test
  void aJobTheSessionHoldsAsItsDescriptionIsReadFromIt() throws Exception {
    Path application = dir.resolve("nm-local-dir/usercache/alice/appcache/application_1_0002");
    Files.createDirectories(application);
    StagedJob job = StagedJob.stage(dir, "2", 1, List.of(new String[0], new String[0]), 1);
    io.vivace.submit.JobDescription description = io.vivace.submit.JobDescription.read(
        new File(job.submitDir().toUri().getPath()));
    Configuration conf = new Configuration();
    conf.set(MRConfig.LOCAL_DIR, ContainerDirs.of(application.toString(), "container_1_0002_01_000002"));
    List<String> asked = new ArrayList<>();
    ExecutorJobs executor = new ExecutorJobs(conf, new ShuffleMemory(16 << 20), jobId -> {
      asked.add(jobId);
      return description;
    });
    AttemptAssignment noFolder = new AttemptAssignment(job.id().toString(), "file:/nowhere/" + job.id(),
        new Credentials(), "attempt_" + job.id().toString().substring(4) + "_m_000001_0", true, 1, List.of());
    Submission loaded = executor.job(noFolder).local().submission();
    assertWhole(loaded, job);
    assertEquals(2, loaded.splits().count(), "splits read from the description");
    assertEquals(List.of(job.id().toString()), asked);
    File described = new File(loaded.submitDir().toUri().getPath());
    assertTrue(described.toPath().startsWith(application.resolve("container_1_0002_01_000002")), described.toString());
    executor.finished(job.id().toString());
    assertTrue(!described.exists(), "the description's folder is gone once the job finished there");
  }

  /**
   * A job read ahead of its attempts (the session has just taken it) is the one its first attempt
   * runs, not read again; one the session said is over before its read ahead came is not read.
   */
  @Test
  void aJobReadAheadIsTheOneItsAttemptsRunAndOneOverIsNotRead() throws Exception {
    Path application = dir.resolve("nm-local-dir/usercache/alice/appcache/application_1_0003");
    Files.createDirectories(application);
    ExecutorJobs executor = executor(application, "container_1_0003_01_000002");
    StagedJob job = StagedJob.stage(dir, "3", 1, java.util.Collections.singletonList(new String[0]), 0);
    AttemptAssignment map = firstMapOf(job);
    executor.readAhead(map.job());
    assertTrue(jobFolderIn(application, job.id().toString()), "the job read back before any attempt of it");
    ExecutorJobs.Job read = executor.job(map);
    assertWhole(read.local().submission(), job);
    executor.readAhead(map.job());
    assertTrue(read == executor.job(map), "the job read ahead, for every attempt");
    File jobDir = read.local().submission().jobDir();
    executor.finished(job.id().toString());
    assertTrue(!jobDir.exists());

    StagedJob ended = StagedJob.stage(dir, "3", 2, java.util.Collections.singletonList(new String[0]), 0);
    executor.finished(ended.id().toString());
    executor.readAhead(firstMapOf(ended).job());
    assertTrue(!jobFolderIn(application, ended.id().toString()), "no folder for a job over before its read ahead");
  }

  /** Whether some folder under {@code root} is a job folder ({@code vivace/<job id>}) of {@code jobId}. */
  private static boolean jobFolderIn(Path root, String jobId) throws java.io.IOException {
    try (var paths = Files.walk(root)) {
      return paths.anyMatch(p -> Files.isDirectory(p) && p.getFileName().toString().equals(jobId)
          && p.getParent().getFileName().toString().equals("vivace"));
    }
  }

  /** Every key of the staged job and every file of its unpacked cache archive, whole. */
  private static void assertWhole(Submission loaded, StagedJob job) throws Exception {
    assertEquals(job.id().toString(), loaded.id().toString());
    for (int i = 0; i < StagedJob.FILLER_KEYS; i++) {
      assertEquals("value-" + i, loaded.conf().get("staged.key." + i), "key " + i + " of " + job.id());
    }
    assertTrue(loaded.conf().getUseNewMapper(), "the job's mapred.mapper.new-api");
    Path lookup = loaded.resources().workDir().toPath().resolve("lookup/lookup");
    for (int i = 0; i < 20; i++) {
      assertEquals(("lookup table part " + i + "\n").repeat(200), Files.readString(lookup.resolve("part-" + i)),
          "part " + i + " of the cache archive of " + job.id());
    }
  }
}
