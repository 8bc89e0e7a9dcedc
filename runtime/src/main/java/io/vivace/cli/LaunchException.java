package io.vivace.cli;

/** A launch that cannot go ahead (no such jar, no main class...); its message says it all. */
final class LaunchException extends Exception {

  LaunchException(String message) {
    super(message);
  }
}
