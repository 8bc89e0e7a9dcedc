package io.vivace.sandbox;

import java.io.File;

/**
 * What the code of one task attempt (or one job-level step: setup, commit, abort) sees instead of
 * a JVM of its own: its working directory and the fate of its exit calls. Held by the thread that
 * runs the attempt and inherited by the threads that code starts; the rewritten calls of job
 * classes ({@link io.vivace.sandbox.calls}) look it up.
 */
public final class TaskScope {

  private static final InheritableThreadLocal<TaskScope> CURRENT = new InheritableThreadLocal<>();

  private final String owner;
  private final TaskWorkDir workDir;
  private final Runnable stop;
  private volatile String exitCall;

  /**
   * @param owner names the code in messages: {@code task attempt_...} or {@code job job_... (commit)}
   * @param stop  asks the attempt to stop (at its next record, by interrupt)
   */
  public TaskScope(String owner, TaskWorkDir workDir, Runnable stop) {
    this.owner = owner;
    this.workDir = workDir;
    this.stop = stop;
  }

  /** The scope of the calling thread; null outside task code. */
  public static TaskScope current() {
    return CURRENT.get();
  }

  /** Makes {@code scope} the calling thread's; returns the one it had, for {@link #restore}. */
  public static TaskScope enter(TaskScope scope) {
    TaskScope previous = CURRENT.get();
    CURRENT.set(scope);
    return previous;
  }

  public static void restore(TaskScope previous) {
    if (previous == null) {
      CURRENT.remove();
    } else {
      CURRENT.set(previous);
    }
  }

  public String owner() {
    return owner;
  }

  /** Where the working directory is, whether it is made yet or not. */
  public File workDirPath() {
    return workDir.path();
  }

  /** The working directory, made (with its links) on first use. */
  public File workDir() {
    return workDir.get();
  }

  /**
   * Records that the code called {@code call} (e.g. {@code System.exit(3)}), stops the attempt and
   * returns the error to throw in place of ending the JVM.
   */
  public TaskExitError exitCalled(String call) {
    exitCall = call;
    stop.run();
    return new TaskExitError(owner + " called " + call);
  }

  /** The exit call the code made, or null; an attempt that made one fails even if it returned. */
  public String exitCall() {
    return exitCall;
  }

  /**
   * Throws the exit error again when the code called an exit and then went on (it caught the
   * error): the attempt must not commit.
   */
  public void checkNoExit() {
    TaskExitError error = exitError();
    if (error != null) {
      throw error;
    }
  }

  /** What the attempt fails with when its code called an exit (from whichever thread); else null. */
  public TaskExitError exitError() {
    String call = exitCall;
    return call == null ? null : new TaskExitError(owner + " called " + call);
  }

  /** Removes the working directory, if it was made. */
  public void deleteWorkDir() {
    workDir.delete();
  }
}
