package io.vivace.sandbox.calls;

import io.vivace.sandbox.TaskScope;

/** The process-wide facts a task's code reads that must be its own: {@code user.dir} and {@code PWD}. */
public final class TaskSystem {

  private TaskSystem() {
  }

  public static String getProperty(String key) {
    TaskScope scope = TaskScope.current();
    if (scope != null && "user.dir".equals(key)) {
      return scope.workDir().getPath();
    }
    return System.getProperty(key);
  }

  public static String getProperty(String key, String defaultValue) {
    TaskScope scope = TaskScope.current();
    if (scope != null && "user.dir".equals(key)) {
      return scope.workDir().getPath();
    }
    return System.getProperty(key, defaultValue);
  }

  public static String getenv(String name) {
    TaskScope scope = TaskScope.current();
    if (scope != null && "PWD".equals(name)) {
      return scope.workDir().getPath();
    }
    return System.getenv(name);
  }
}
