package io.vivace.driver;

/** Hadoop reports unknown times as 0 or -1; the run record says null. */
final class Times {

  private Times() {}

  static Long orNull(long millis) {
    return millis > 0 ? millis : null;
  }
}
