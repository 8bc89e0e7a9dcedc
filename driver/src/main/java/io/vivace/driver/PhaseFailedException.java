package io.vivace.driver;

/** A phase could not do its work; the message says why, for the run record's failure. */
public final class PhaseFailedException extends Exception {

  public PhaseFailedException(String message) {
    super(message);
  }
}
