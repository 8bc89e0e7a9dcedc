package io.vivace.driver;

/** A command line the program cannot run: its message says what is wrong. */
public final class UsageException extends Exception {

  public UsageException(String message) {
    super(message);
  }
}
