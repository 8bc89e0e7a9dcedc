package io.vivace.cluster.rpc;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.io.Writable;

/**
 * The session's answer to an executor asking for work: attempts to start, attempts to stop, jobs to
 * read back ahead of their attempts (the session has just taken them), jobs that are over (the
 * executor drops what it holds for them), and whether to shut down.
 */
public final class Assignments implements Writable {

  private List<AttemptAssignment> attempts = List.of();
  private List<String> stops = List.of();
  private List<String> finishedJobs = List.of();
  private List<JobToRead> jobsToRead = List.of();
  private boolean shutdown;

  public Assignments() {
  }

  public Assignments(List<AttemptAssignment> attempts, List<String> stops, List<String> finishedJobs,
                     boolean shutdown) {
    this(attempts, stops, finishedJobs, List.of(), shutdown);
  }

  public Assignments(List<AttemptAssignment> attempts, List<String> stops, List<String> finishedJobs,
                     List<JobToRead> jobsToRead, boolean shutdown) {
    this.attempts = attempts;
    this.stops = stops;
    this.finishedJobs = finishedJobs;
    this.jobsToRead = jobsToRead;
    this.shutdown = shutdown;
  }

  public List<AttemptAssignment> attempts() {
    return attempts;
  }

  /** Ids of attempts to stop (killed, timed out). */
  public List<String> stops() {
    return stops;
  }

  public List<String> finishedJobs() {
    return finishedJobs;
  }

  /** Jobs the session has just taken, to read back before their first attempts come. */
  public List<JobToRead> jobsToRead() {
    return jobsToRead;
  }

  public boolean shutdown() {
    return shutdown;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    WritableLists.write(out, attempts);
    WritableLists.writeStrings(out, stops);
    WritableLists.writeStrings(out, finishedJobs);
    WritableLists.write(out, jobsToRead);
    out.writeBoolean(shutdown);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    attempts = WritableLists.read(in, AttemptAssignment::new);
    stops = WritableLists.readStrings(in);
    finishedJobs = WritableLists.readStrings(in);
    jobsToRead = WritableLists.read(in, JobToRead::new);
    shutdown = in.readBoolean();
  }
}
