package io.vivace.shuffle.net;

/**
 * Hadoop's shuffle error counters (group {@value #GROUP}, named as Hadoop's Fetcher names them),
 * counted once per failed try of a fetch (docs/shuffle.md, "Failures").
 */
public enum ShuffleError {
  /** Anything else that failed a try: an error status, an answer cut short or too slow, an answer not authenticated. */
  IO_ERROR,
  /** The announced length is missing, negative or not the body's. */
  WRONG_LENGTH,
  /** The answer names no job, attempt, map or partition, or another job or attempt than asked. */
  BAD_ID,
  /** The answer is another map's. */
  WRONG_MAP,
  /** No connection to the executor (refused, unreachable, timed out). */
  CONNECTION,
  /** The answer is another partition's. */
  WRONG_REDUCE;

  /** Hadoop's counter group of shuffle errors. */
  public static final String GROUP = "Shuffle Errors";
}
