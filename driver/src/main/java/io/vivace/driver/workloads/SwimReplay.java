package io.vivace.driver.workloads;

import io.vivace.workloads.swim.ReplaySettings;
import io.vivace.workloads.swim.SwimJobFactory;
import io.vivace.workloads.swim.SynthesisedJob;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.util.Tool;

/**
 * Replays synthesised jobs open loop from this JVM: when a job's offset from the replay's start
 * comes, a thread of its own submits it ({@code Job.submit()}), whether earlier jobs have finished,
 * or even returned from their submission, or not; that thread then watches its job, and once it
 * is complete closes its client (the job recorder takes its snapshot then) and deletes its output,
 * as SWIM's scripts do. A watcher per job: one thread polling hundreds of running jobs in turn
 * would note each completion only after every other job's status call. A job that fails, or cannot even be submitted, is noted with its
 * reason and the replay goes on. A thread per submission, as SWIM's scripts start a process per
 * job: Tez's MapReduce client returns from {@code submit()} only once the job's ApplicationMaster
 * runs (15 to 45 s on a busy 2-core machine), and one submitter would hold every later job back
 * that long.
 */
final class SwimReplay extends Configured implements Tool {

  static final long POLL_MS = 50;
  /**
   * How often a watcher asks whether its job is complete while few run: as Hadoop's job client waits
   * for a job on every engine here ({@code ClientPolls}), so that the replay adds no more to a job's
   * time than a client does (50 ms added 25 to every job, a tenth of a small job's on a session).
   */
  static final long WATCH_POLL_MS = io.vivace.client.ClientPolls.COMPLETION_POLL_MILLIS;
  /**
   * The status calls of all watchers together, at most, a second: with hundreds of jobs running
   * (a replay faster than the framework), polling each every 50 ms added thousands of calls a
   * second to the overload; each then waits {@code running * 1000 / this} ms instead.
   */
  static final long STATUS_CALLS_PER_S = 200;
  static final long PROGRESS_EVERY_MS = 5000;
  /** A replay of thousands of jobs changes its line every poll: at most one a second, and the last. */
  static final long PROGRESS_AT_MOST_EVERY_MS = 1000;

  private final List<SynthesisedJob> jobs;
  private final ReplaySettings settings;
  private final Path pool;
  private final Path outputs;
  private final Consumer<String> progress;
  private final List<Map<String, Object>> outcomes = new ArrayList<>();
  private final Set<Submitted> running = ConcurrentHashMap.newKeySet();
  private final Queue<Thread> watchers = new ConcurrentLinkedQueue<>();
  private final AtomicInteger done = new AtomicInteger();
  private final AtomicInteger failed = new AtomicInteger();

  SwimReplay(List<SynthesisedJob> jobs, ReplaySettings settings, Path pool, Path outputs,
      Consumer<String> progress) {
    this.jobs = jobs;
    this.settings = settings;
    this.pool = pool;
    this.outputs = outputs;
    this.progress = progress;
  }

  /** What happened to each job, in trace order, for the record's results. */
  List<Map<String, Object>> outcomes() {
    return outcomes;
  }

  /** A submitted job; identity equality, as the set of running jobs needs. */
  private static final class Submitted {
    private final SynthesisedJob job;
    private final Map<String, Object> outcome;
    private final Job client;
    private final Path output;

    Submitted(SynthesisedJob job, Map<String, Object> outcome, Job client, Path output) {
      this.job = job;
      this.outcome = outcome;
      this.client = client;
      this.output = output;
    }

    SynthesisedJob job() {
      return job;
    }

    Map<String, Object> outcome() {
      return outcome;
    }

    Job client() {
      return client;
    }

    Path output() {
      return output;
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    warmUp();
    long startMs = System.currentTimeMillis();
    for (SynthesisedJob job : jobs) {
      outcomes.add(describe(job, startMs));
    }
    Thread submitter = new Thread(this::submitInTraceOrder, "swim-submitter");
    submitter.setDaemon(true);
    submitter.start();
    long lastProgressMs = 0;
    String lastLine = "";
    try {
      while (done.get() < jobs.size()) {
        int ended = done.get();
        String line = "swim: submitted " + (ended + running.size()) + "/" + jobs.size()
            + ", running " + running.size() + ", done " + ended + " (" + failed.get() + " failed)";
        long now = System.currentTimeMillis();
        boolean changed = !line.equals(lastLine);
        if (now - lastProgressMs >= PROGRESS_EVERY_MS || (changed
            && now - lastProgressMs >= PROGRESS_AT_MOST_EVERY_MS)) {
          progress.accept(line);
          lastLine = line;
          lastProgressMs = now;
        }
        Thread.sleep(POLL_MS);
      }
      progress.accept("swim: submitted " + jobs.size() + "/" + jobs.size() + ", running 0, done "
          + done.get() + " (" + failed.get() + " failed)");
    } finally {
      submitter.interrupt();
      for (Thread watcher : watchers) {
        watcher.interrupt();
      }
      for (Submitted job : running) {
        killQuietly(job);
      }
    }
    return 0;
  }

  /**
   * Connects to the framework once before the clock starts, so that the first job's submission
   * does not also pay for loading the client's classes and starting the framework's client.
   */
  private void warmUp() throws IOException {
    new Cluster(getConf()).close();
  }

  private Map<String, Object> describe(SynthesisedJob job, long startMs) {
    Map<String, Object> outcome = new LinkedHashMap<>();
    outcome.put("index", job.index());
    outcome.put("name", job.trace().name());
    outcome.put("trace_submit_s", job.trace().submitS());
    outcome.put("due_offset_ms", job.dueOffsetMs());
    outcome.put("due_ms", startMs + job.dueOffsetMs());
    outcome.put("trace_input_bytes", job.trace().inputBytes());
    outcome.put("trace_shuffle_bytes", job.trace().shuffleBytes());
    outcome.put("trace_output_bytes", job.trace().outputBytes());
    outcome.put("scaled_input_bytes", job.scaledInput());
    outcome.put("scaled_shuffle_bytes", job.scaledShuffle());
    outcome.put("scaled_output_bytes", job.scaledOutput());
    outcome.put("input_bytes", job.input());
    outcome.put("shuffle_bytes", job.shuffle());
    outcome.put("output_bytes", job.output());
    outcome.put("first_partition", job.firstPartition());
    outcome.put("partitions", job.partitions());
    outcome.put("reducers", job.reducers());
    outcome.put("map_records_per_input", job.mapRatio());
    outcome.put("reduce_records_per_value", job.reduceRatio());
    outcome.put("submitted_ms", null);
    outcome.put("submit_returned_ms", null);
    outcome.put("job_id", null);
    outcome.put("status", null);
    outcome.put("failure", null);
    return outcome;
  }

  /**
   * Walks the jobs in trace order, waiting for each one's due time, and starts its submission then.
   * A loop rather than a scheduled executor: an executor orders its tasks by trigger times computed
   * from the clock at scheduling, so two jobs due within a millisecond of each other could start
   * out of trace order.
   */
  private void submitInTraceOrder() {
    try {
      for (int i = 0; i < jobs.size(); i++) {
        SynthesisedJob job = jobs.get(i);
        Map<String, Object> outcome = outcomes.get(i);
        long due = (Long) outcome.get("due_ms");
        for (long wait; (wait = due - System.currentTimeMillis()) > 0; ) {
          Thread.sleep(wait);
        }
        Thread submission = new Thread(() -> submitAndWatch(job, outcome),
            "swim-submit-" + job.index());
        submission.setDaemon(true);
        watchers.add(submission);
        submission.start();
      }
    } catch (InterruptedException e) {
      // the replay is being abandoned; the jobs not yet submitted stay without a status
    }
  }

  /**
   * Submits the job, then watches it until it is complete: each job is watched by its own thread,
   * so that the time the client first sees it complete does not wait for the status calls of
   * hundreds of other running jobs.
   */
  private void submitAndWatch(SynthesisedJob job, Map<String, Object> outcome) {
    Path output = new Path(outputs, "job-" + job.index());
    Job client = null;
    synchronized (outcome) {
      try {
        client = SwimJobFactory.create(getConf(), job, settings, pool, output);
        outcome.put("submitted_ms", System.currentTimeMillis());
        client.submit();
        outcome.put("submit_returned_ms", System.currentTimeMillis());
        outcome.put("job_id", client.getJobID().toString());
      } catch (Exception | LinkageError e) {
        outcome.put("status", "FAILED");
        outcome.put("failure", "submission failed: " + e);
        progress.accept("swim: job " + job.index() + " could not be submitted: " + e);
        failed.incrementAndGet();
        done.incrementAndGet();
        return;
      }
    }
    Submitted submitted = new Submitted(job, outcome, client, output);
    running.add(submitted);
    try {
      while (!finished(submitted)) {
        Thread.sleep(Math.max(WATCH_POLL_MS, running.size() * 1000L / STATUS_CALLS_PER_S));
      }
    } catch (InterruptedException | IllegalStateException e) {
      return; // the replay is being abandoned: its thread kills the jobs still running
    }
    running.remove(submitted);
    if (!"SUCCEEDED".equals(outcome.get("status"))) {
      failed.incrementAndGet();
    }
    done.incrementAndGet();
  }

  /** Whether the job is complete; if so, notes its state, closes its client, deletes its output. */
  private boolean finished(Submitted job) {
    Map<String, Object> outcome = job.outcome();
    try {
      if (!job.client().isComplete()) {
        return false;
      }
      JobStatus status = job.client().getStatus();
      synchronized (outcome) {
        outcome.put("status", status.getState().name());
        String info = status.getFailureInfo();
        if (status.getState() != JobStatus.State.SUCCEEDED) {
          outcome.put("failure", info == null || info.isBlank() ? status.getState().name()
              : info.strip());
        }
      }
    } catch (IOException | RuntimeException e) {
      synchronized (outcome) {
        outcome.put("status", "FAILED");
        outcome.put("failure", "lost track of the job: " + e);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
    closeAndClean(job);
    return true;
  }

  private void closeAndClean(Submitted job) {
    try {
      job.client().close();
    } catch (IOException e) {
      progress.accept("swim: closing the client of job " + job.job().index() + ": " + e);
    }
    try {
      job.output().getFileSystem(getConf()).delete(job.output(), true);
    } catch (IOException e) {
      progress.accept("swim: could not delete " + job.output() + ": " + e);
    }
  }

  private void killQuietly(Submitted job) {
    try {
      job.client().killJob();
    } catch (Exception e) {
      // the replay is being abandoned; the driver reports why
    }
    closeAndClean(job);
  }
}
