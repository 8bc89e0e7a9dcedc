package io.vivace.shuffle.net;

import java.io.IOException;

/**
 * One try of a fetch failed on the network's or the serving executor's side: the counter it goes
 * in, whether trying again may help, and whether failing for good means the map's output is lost
 * (so that the map must run again) rather than the reduce being unable to fetch at all.
 */
final class FetchFailure extends IOException {

  private final ShuffleError error;
  private final boolean retryable;
  private final boolean losesOutput;

  private FetchFailure(ShuffleError error, boolean retryable, boolean losesOutput, String message, Throwable cause) {
    super(message, cause);
    this.error = error;
    this.retryable = retryable;
    this.losesOutput = losesOutput;
  }

  /** Trying again may help; after the last try the output counts as lost. */
  static FetchFailure transientFailure(ShuffleError error, String message, Throwable cause) {
    return new FetchFailure(error, true, true, message, cause);
  }

  /** The executor answered that it does not hold the output: lost, no use trying again. */
  static FetchFailure gone(String message) {
    return new FetchFailure(ShuffleError.IO_ERROR, false, true, message, null);
  }

  /** Trying again cannot help and a new run of the map would not either (refused, not authenticated, a codec mismatch). */
  static FetchFailure fatal(ShuffleError error, String message) {
    return new FetchFailure(error, false, false, message, null);
  }

  ShuffleError error() {
    return error;
  }

  boolean retryable() {
    return retryable;
  }

  boolean losesOutput() {
    return losesOutput;
  }
}
