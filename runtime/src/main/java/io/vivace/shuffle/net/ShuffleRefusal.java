package io.vivace.shuffle.net;

/**
 * Why an executor's {@link MapOutputServer} refused a map output request (403), each counted apart
 * ({@link MapOutputServer#refused(ShuffleRefusal)}) and logged.
 */
public enum ShuffleRefusal {
  /** The executor holds no key for the job the request names. */
  UNKNOWN_JOB("no key for its job"),
  /** No MAC, or no time or nonce for it to cover. */
  NO_MAC("no MAC, time or nonce"),
  /** A MAC that is not the request's under its job's key: another key, or a request altered after it was made. */
  WRONG_MAC("a wrong MAC (another key, or an altered request)"),
  /** A valid MAC, but the request's time is further than the window from the executor's clock. */
  STALE("a request too old or too far ahead of the executor's clock"),
  /** A valid MAC, but its nonce was used already: a replayed request. */
  REPLAYED("a replayed request (its nonce was used already)");

  private final String reason;

  ShuffleRefusal(String reason) {
    this.reason = reason;
  }

  /** The reason, in words, as the 403 answer and the log say it. */
  public String reason() {
    return reason;
  }
}
