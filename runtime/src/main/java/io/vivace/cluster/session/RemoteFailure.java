package io.vivace.cluster.session;

/**
 * Why an attempt failed on an executor, as the executor described it (its error and stack trace):
 * it reads here as the error itself, so the job's failure names the real cause.
 */
final class RemoteFailure extends Exception {

  private static final long serialVersionUID = 1L;

  private final String diagnostics;

  RemoteFailure(String diagnostics) {
    super(firstLine(diagnostics), null, false, false);
    this.diagnostics = diagnostics;
  }

  private static String firstLine(String text) {
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }

  @Override
  public String toString() {
    return getMessage();
  }

  @Override
  public void printStackTrace(java.io.PrintWriter out) {
    out.print(diagnostics);
  }

  @Override
  public void printStackTrace(java.io.PrintStream out) {
    out.print(diagnostics);
  }
}
