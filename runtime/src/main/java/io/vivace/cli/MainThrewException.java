package io.vivace.cli;

/** The program's {@code main} (or its class's initialisation) threw; the cause is what it threw. */
final class MainThrewException extends Exception {

  MainThrewException(Throwable thrown) {
    super(thrown);
  }
}
