package io.vivace.sandbox.calls;

import io.vivace.sandbox.TaskScope;

/** {@code System.exit}, {@code Runtime.exit} and {@code Runtime.halt} as task code calls them. */
public final class TaskExits {

  private TaskExits() {
  }

  public static void systemExit(int status) {
    TaskScope scope = TaskScope.current();
    if (scope == null) {
      System.exit(status);
      return;
    }
    throw scope.exitCalled("System.exit(" + status + ")");
  }

  public static void runtimeExit(Runtime runtime, int status) {
    TaskScope scope = TaskScope.current();
    if (scope == null) {
      runtime.exit(status);
      return;
    }
    throw scope.exitCalled("Runtime.exit(" + status + ")");
  }

  public static void runtimeHalt(Runtime runtime, int status) {
    TaskScope scope = TaskScope.current();
    if (scope == null) {
      runtime.halt(status);
      return;
    }
    throw scope.exitCalled("Runtime.halt(" + status + ")");
  }
}
