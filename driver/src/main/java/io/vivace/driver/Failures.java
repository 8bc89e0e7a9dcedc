package io.vivace.driver;

/** The message a run record gives for what made a phase fail. */
final class Failures {

  private static final int SHOWN = 3;

  private Failures() {}

  static String message(Throwable failure) {
    if (failure instanceof PhaseFailedException) {
      return failure.getMessage();
    }
    StringBuilder message = new StringBuilder();
    describe(failure, message);
    // Hadoop's Cluster reports each provider's refusal as a suppressed exception with a cause.
    Throwable[] suppressed = failure.getSuppressed();
    for (int i = 0; i < Math.min(SHOWN, suppressed.length); i++) {
      describe(suppressed[i], message.append("; with "));
    }
    return message.toString();
  }

  private static void describe(Throwable failure, StringBuilder out) {
    out.append(failure);
    Throwable cause = failure.getCause();
    for (int i = 0; i < SHOWN && cause != null; i++, cause = cause.getCause()) {
      out.append("; caused by ").append(cause);
    }
  }
}
