package io.vivace.workloads.swim;

/**
 * How trace sizes shrink to the cluster a replay runs on. SWIM's integer mode multiplies by the
 * target cluster's machines and divides by the production cluster's, in whole-number arithmetic
 * ({@code bytes * target / trace}, the quotient truncated); the real-valued mode multiplies by a
 * factor and truncates to whole bytes.
 */
public final class Scale {

  private final long targetNodes;
  private final long traceNodes;
  private final double factor;

  private Scale(long targetNodes, long traceNodes, double factor) {
    this.targetNodes = targetNodes;
    this.traceNodes = traceNodes;
    this.factor = factor;
  }

  /** SWIM's integer mode: {@code target} machines replaying a trace of {@code trace} machines. */
  public static Scale nodes(long target, long trace) {
    if (target < 1 || trace < 1) {
      throw new IllegalArgumentException("cluster sizes must be at least 1: " + target + "/" + trace);
    }
    return new Scale(target, trace, Double.NaN);
  }

  /** The real-valued mode: sizes times {@code factor} (greater than 0). */
  public static Scale factor(double factor) {
    if (!(factor > 0) || Double.isInfinite(factor)) {
      throw new IllegalArgumentException("scale factor must be a number greater than 0: " + factor);
    }
    return new Scale(0, 0, factor);
  }

  /** {@code bytes} of the trace on the target cluster. */
  public long apply(long bytes) {
    if (Double.isNaN(factor)) {
      return Math.multiplyExact(bytes, targetNodes) / traceNodes;
    }
    return (long) Math.floor(bytes * factor);
  }

  @Override
  public String toString() {
    return Double.isNaN(factor) ? targetNodes + "/" + traceNodes + " machines" : "x" + factor;
  }
}
