package io.vivace.task;

import java.io.IOException;

/**
 * Asked by an attempt whose output needs a commit, before it commits (Hadoop's {@code canCommit}):
 * where two attempts of a task may race (speculation), only the one the scheduler names may.
 */
@FunctionalInterface
public interface CommitPermission {

  /** Always yes: where a task never has two attempts at once (the embedded engine). */
  CommitPermission ALWAYS = () -> true;

  /** Whether this attempt may commit its task's output now. */
  boolean mayCommit() throws IOException;
}
