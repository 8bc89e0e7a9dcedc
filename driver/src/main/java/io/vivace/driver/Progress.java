package io.vivace.driver;

/** The driver's progress: one line per phase and per job, on stderr. */
final class Progress {

  private Progress() {}

  static void line(String message) {
    System.err.println("vivace driver: " + message);
    System.err.flush();
  }
}
