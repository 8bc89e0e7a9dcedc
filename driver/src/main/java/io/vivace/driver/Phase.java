package io.vivace.driver;

/** The three phases of a run, in order; each runs its jobs on its own framework. */
public enum Phase {
  /** Generates the input, or finds it already generated. */
  PREPARE,
  /** The timed jobs, on the framework under test. */
  RUN,
  /** Checks the run's output. */
  VALIDATE;

  /** As the run record writes it. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The phase with this {@link #label}; null if none. */
  public static Phase byLabel(String label) {
    for (Phase phase : values()) {
      if (phase.label().equals(label)) {
        return phase;
      }
    }
    return null;
  }
}
