package io.vivace.task;

import io.vivace.counters.AttemptCounters;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.StatusReporter;

/**
 * The counters, status and progress of one task attempt, seen by user code through both APIs
 * (new-API contexts take a {@link StatusReporter}, old-API code a {@link Reporter}).
 */
public final class TaskReporter extends StatusReporter implements Reporter {

  private final AttemptCounters counters = new AttemptCounters();
  private volatile String status = "";
  private volatile float progress;
  private volatile boolean killed;
  /** Reports that are not counts (progress(), status, progress fraction); read racily by the monitor. */
  private long reports;
  private InputSplit inputSplit;

  public AttemptCounters counters() {
    return counters;
  }

  /** A counter the framework keeps ({@link org.apache.hadoop.mapreduce.TaskCounter}, file format counters). */
  public org.apache.hadoop.mapreduce.Counter frameworkCounter(Enum<?> key) {
    return counters.frameworkCounter(key);
  }

  /** Asks the attempt to stop at its next record. */
  public void kill() {
    killed = true;
  }

  /** Throws when the attempt was asked to stop; called between records. */
  public void checkKilled() throws InterruptedException {
    if (killed) {
      throw new InterruptedException("task attempt killed");
    }
  }

  /** {@link #checkKilled()} for old-API calls, which may only throw IOException. */
  public void checkKilledInOldApi() throws java.io.InterruptedIOException {
    if (killed) {
      throw new java.io.InterruptedIOException("task attempt killed");
    }
  }

  public String status() {
    return status;
  }

  public void setProgress(float progress) {
    this.progress = progress;
    reports++;
  }

  /**
   * A number that changes whenever the attempt shows progress as Hadoop defines it (a record read
   * or written, a counter, a status or a progress report). Read by another thread without locking:
   * a stale value only delays the change being seen.
   */
  public long activity() {
    return reports + counters.activity();
  }

  void setInputSplit(InputSplit split) {
    this.inputSplit = split;
  }

  @Override
  public Counters.Counter getCounter(Enum<?> name) {
    return counters.hadoopCounter(name);
  }

  @Override
  public Counters.Counter getCounter(String group, String name) {
    return counters.hadoopCounter(group, name);
  }

  @Override
  public void incrCounter(Enum<?> key, long amount) {
    getCounter(key).increment(amount);
  }

  @Override
  public void incrCounter(String group, String counter, long amount) {
    getCounter(group, counter).increment(amount);
  }

  @Override
  public InputSplit getInputSplit() {
    if (inputSplit == null) {
      throw new UnsupportedOperationException("Input only available on map");
    }
    return inputSplit;
  }

  @Override
  public void progress() {
    reports++;
  }

  @Override
  public float getProgress() {
    return progress;
  }

  @Override
  public void setStatus(String status) {
    this.status = status == null ? "" : status;
    reports++;
  }
}
