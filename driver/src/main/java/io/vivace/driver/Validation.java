package io.vivace.driver;

/**
 * The outcome of the validate phase. {@code outputChecksum} and {@code outputBytes} describe the
 * run's output where the workload has one, also when the check failed; null otherwise.
 */
public record Validation(Status status, String detail, String outputChecksum, Long outputBytes) {

  /** PASSED or FAILED; SKIPPED when an earlier phase failed. */
  public enum Status { PASSED, FAILED, SKIPPED }

  public static Validation passed(String detail, String outputChecksum, Long outputBytes) {
    return new Validation(Status.PASSED, detail, outputChecksum, outputBytes);
  }

  public static Validation failed(String detail, String outputChecksum, Long outputBytes) {
    return new Validation(Status.FAILED, detail, outputChecksum, outputBytes);
  }

  public static Validation skipped(String detail) {
    return new Validation(Status.SKIPPED, detail, null, null);
  }
}
