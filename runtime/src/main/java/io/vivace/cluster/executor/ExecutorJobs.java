package io.vivace.cluster.executor;

import io.vivace.cluster.ReadBackJobs;
import io.vivace.cluster.rpc.AttemptAssignment;
import io.vivace.exec.LocalJob;
import io.vivace.segment.SegmentCodec;
import io.vivace.shuffle.MapOutput;
import io.vivace.shuffle.ShuffleMemory;
import io.vivace.submit.Submission;
import io.vivace.submit.SubmissionLoader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.JobID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jobs an executor has run attempts of: each read back from its staging folder on the cluster's
 * file system on its first attempt here (configuration, cache, class path, sandbox, splits) into the
 * executor's own local folders ({@code cluster/ContainerDirs}), with the map outputs made here,
 * until the session says the job is over. Jobs load one at a time each, side by side with others.
 */
final class ExecutorJobs {

  private static final Logger LOG = LoggerFactory.getLogger(ExecutorJobs.class);

  /** A job read back here, and which attempt's output each of its maps here holds. */
  record Job(LocalJob local, Map<Integer, String> outputAttempts) {
  }

  /** A job's place here: loaded by its first attempt, while the others of the job wait. */
  private static final class Slot {
    Job job;
    boolean finished;
  }

  private final Configuration conf;
  private final ShuffleMemory shuffleMemory;
  private final Map<String, Slot> jobs = new ConcurrentHashMap<>();

  ExecutorJobs(Configuration conf, ShuffleMemory shuffleMemory) {
    this.conf = conf;
    this.shuffleMemory = shuffleMemory;
  }

  /** The assignment's job, read back on first use. */
  Job job(AttemptAssignment assignment) throws IOException {
    Slot slot = jobs.computeIfAbsent(assignment.jobId(), id -> new Slot());
    synchronized (slot) {
      if (slot.finished) {
        throw new IOException("job " + assignment.jobId() + " is over on this executor");
      }
      if (slot.job == null) {
        long start = System.nanoTime();
        Submission submission = SubmissionLoader.load(JobID.forName(assignment.jobId()), assignment.submitDir(),
            assignment.credentials(), conf);
        SegmentCodec codec = submission.conf().getNumReduceTasks() > 0
            ? SegmentCodec.forJob(submission.conf()) : SegmentCodec.NONE;
        slot.job = new Job(new LocalJob(submission, shuffleMemory, codec, false), new ConcurrentHashMap<>());
        LOG.info("Read job " + assignment.jobId() + " back from " + assignment.submitDir() + " into "
            + submission.jobDir() + " in " + (System.nanoTime() - start) / 1_000_000 + " ms");
      }
      return slot.job;
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
    }
    if (job == null) {
      return;
    }
    job.local().shuffle().releaseAll();
    ReadBackJobs.release(job.local().submission());
  }
}
