package io.vivace.scheduler;

/**
 * A running attempt as its executor shows it to the scheduler: how far it got, what it says, whether
 * it moves, and a way to stop it. Read by the scheduler's monitor without locks; values may lag.
 */
public interface AttemptHandle {

  /** The attempt's own progress, 0 to 1. */
  float progress();

  /** The attempt's status line ({@code setStatus}). */
  String status();

  /**
   * A number that changes whenever the attempt shows progress as Hadoop defines it (a record read
   * or written, a counter, a status or progress report): {@code mapreduce.task.timeout} watches it.
   */
  long activity();

  /**
   * Asks the attempt to stop (at its next record, by interrupt). It then ends as failed or killed
   * through the executor, by itself or, if it does not stop, when the executor gives up on it.
   */
  void stop();
}
