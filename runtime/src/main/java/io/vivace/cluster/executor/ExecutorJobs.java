package io.vivace.cluster.executor;

import io.vivace.cluster.ReadBackJobs;
import io.vivace.cluster.rpc.AttemptAssignment;
import io.vivace.cluster.rpc.JobToRead;
import io.vivace.exec.LocalJob;
import io.vivace.segment.SegmentCodec;
import io.vivace.shuffle.MapOutput;
import io.vivace.shuffle.ShuffleMemory;
import io.vivace.submit.JobDescription;
import io.vivace.submit.Submission;
import io.vivace.submit.SubmissionLoader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.io.File;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.JobID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jobs an executor has run attempts of: each read back on its first attempt here
 * (configuration, cache, class path, sandbox, splits) into the executor's own local folders
 * ({@code cluster/ContainerDirs}), from the description the session holds of it, written into a
 * folder here, or, for a job staged on the cluster's file system, from its staging folder; with the
 * map outputs made here, until the session says the job is over. Jobs load one at a time each, side
 * by side with others.
 */
final class ExecutorJobs {

  private static final Logger LOG = LoggerFactory.getLogger(ExecutorJobs.class);

  /** A job read back here, and which attempt's output each of its maps here holds. */
  record Job(LocalJob local, Map<Integer, String> outputAttempts) {
  }

  /** Where the descriptions of jobs submitted by description are read: the session's master. */
  interface Descriptions {
    /** The job's description; one not present when the job was staged on the cluster's file system. */
    JobDescription of(String jobId) throws IOException;
  }

  /** A job's place here: loaded by its first attempt, while the others of the job wait. */
  private static final class Slot {
    Job job;
    boolean finished;
    /** The folder its description was written into; null for a job read from its staging folder. */
    File described;
  }

  private final Configuration conf;
  private final ShuffleMemory shuffleMemory;
  private final Descriptions descriptions;
  private final Map<String, Slot> jobs = new ConcurrentHashMap<>();
  /** The latest jobs the session said are over, so that a read ahead coming late does not read one again. */
  private final java.util.Set<String> over = java.util.Collections.newSetFromMap(
      java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
          return size() > 10_000;
        }
      }));

  /** Jobs that are all read from their staging folders. */
  ExecutorJobs(Configuration conf, ShuffleMemory shuffleMemory) {
    this(conf, shuffleMemory, jobId -> new JobDescription());
  }

  ExecutorJobs(Configuration conf, ShuffleMemory shuffleMemory, Descriptions descriptions) {
    this.conf = conf;
    this.shuffleMemory = shuffleMemory;
    this.descriptions = descriptions;
  }

  /** The assignment's job, read back on first use. */
  Job job(AttemptAssignment assignment) throws IOException {
    return job(assignment.job(), false);
  }

  /**
   * Reads the job back ahead of its first attempt here (the session has just taken it); nothing
   * when it is read already, or over (also when the session says so while it is read: the end then
   * waits for the read and drops the job). A failure is left for its first attempt to meet again.
   */
  void readAhead(JobToRead toRead) {
    try {
      job(toRead, true);
    } catch (IOException | RuntimeException e) {
      LOG.info("Could not read job " + toRead.jobId() + " ahead of its attempts: " + e);
    }
  }

  private Job job(JobToRead assignment, boolean ahead) throws IOException {
    Slot slot = jobs.computeIfAbsent(assignment.jobId(), id -> new Slot());
    synchronized (slot) {
      if (ahead && over.contains(assignment.jobId())) {
        jobs.remove(assignment.jobId(), slot); // over before it was read: nothing to read
        return null;
      }
      if (slot.finished) {
        throw new IOException("job " + assignment.jobId() + " is over on this executor");
      }
      if (slot.job == null) {
        long start = System.nanoTime();
        String submitDir = submitDir(assignment, slot);
        long fetched = System.nanoTime();
        Submission submission;
        try {
          submission = SubmissionLoader.load(JobID.forName(assignment.jobId()), submitDir,
              assignment.credentials(), conf);
        } catch (IOException | RuntimeException e) {
          deleteDescribed(slot);
          throw e;
        }
        SegmentCodec codec = submission.conf().getNumReduceTasks() > 0
            ? SegmentCodec.forJob(submission.conf()) : SegmentCodec.NONE;
        slot.job = new Job(new LocalJob(submission, shuffleMemory, codec, false), new ConcurrentHashMap<>());
        LOG.info("Read job " + assignment.jobId() + " back from "
            + (slot.described != null ? "the session's description of it" : submitDir) + " into "
            + submission.jobDir() + " in " + (System.nanoTime() - start) / 1_000_000 + " ms: "
            + (slot.described != null ? "description " + (fetched - start) / 1_000_000 + " ms, " : "")
            + "read " + submission.loadTimes());
      }
      return slot.job;
    }
  }

  /**
   * Where the job is read from: the folder its description is written into when the session holds
   * one, else the staging folder the assignment names.
   */
  private String submitDir(JobToRead assignment, Slot slot) throws IOException {
    JobDescription description = descriptions.of(assignment.jobId());
    if (!description.isPresent()) {
      return assignment.submitDir();
    }
    File dir = new File(conf.getTrimmedStrings(MRConfig.LOCAL_DIR)[0], "vivace-described/" + assignment.jobId());
    slot.described = dir;
    description.writeTo(dir);
    return new Path(dir.toURI()).toString();
  }

  private static void deleteDescribed(Slot slot) {
    if (slot.described != null) {
      FileUtil.fullyDelete(slot.described);
      slot.described = null;
    }
  }

  /** A map's output made here by {@code attemptId}, to serve to reduces; null if not (or no longer) here. */
  MapOutput output(String jobId, int mapIndex, String attemptId) {
    Slot slot = jobs.get(jobId);
    Job job = slot == null ? null : loaded(slot);
    if (job == null || !attemptId.equals(job.outputAttempts().get(mapIndex))) {
      return null;
    }
    return job.local().shuffle().mapOutput(mapIndex);
  }

  private static Job loaded(Slot slot) {
    synchronized (slot) {
      return slot.job;
    }
  }

  /** Keeps a successful map's output here, for reduces to fetch. */
  void keep(Job job, int mapIndex, String attemptId, MapOutput output) {
    job.local().shuffle().publish(mapIndex, output);
    job.outputAttempts().put(mapIndex, attemptId);
  }

  /** The job is over: its map outputs, local folders, file systems and class loaders go. */
  void finished(String jobId) {
    over.add(jobId);
    Slot slot = jobs.remove(jobId);
    if (slot != null) {
      close(slot);
    }
  }

  void closeAll() {
    List<Slot> all = new ArrayList<>(jobs.values());
    jobs.clear();
    all.forEach(ExecutorJobs::close);
  }

  private static void close(Slot slot) {
    Job job;
    synchronized (slot) {
      slot.finished = true;
      job = slot.job;
      slot.job = null;
      deleteDescribed(slot);
    }
    if (job == null) {
      return;
    }
    job.local().shuffle().releaseAll();
    ReadBackJobs.release(job.local().submission());
  }
}
