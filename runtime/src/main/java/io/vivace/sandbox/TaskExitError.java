package io.vivace.sandbox;

/**
 * Thrown in task code in place of {@code System.exit}, {@code Runtime.exit} or {@code Runtime.halt}:
 * on Hadoop those end the task's own JVM, here they end only the attempt. An {@link Error}, so that
 * the job's {@code catch (Exception e)} does not swallow it.
 */
public final class TaskExitError extends Error {

  private static final long serialVersionUID = 1L;

  TaskExitError(String message) {
    super(message);
  }
}
