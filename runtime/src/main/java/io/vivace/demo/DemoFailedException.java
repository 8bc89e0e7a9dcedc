package io.vivace.demo;

/** A demo job that failed, or an output that is not what the job should have written. */
final class DemoFailedException extends Exception {

  DemoFailedException(String message) {
    super(message);
  }
}
