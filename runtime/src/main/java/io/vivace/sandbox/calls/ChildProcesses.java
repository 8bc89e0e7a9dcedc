package io.vivace.sandbox.calls;

import io.vivace.sandbox.TaskScope;
import java.io.File;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Child processes of task code start in the task's working directory, with {@code PWD} naming it,
 * as a YARN container's children do; relative directories and redirect files resolve there too. The
 * caller's {@code ProcessBuilder} is left as it was.
 */
public final class ChildProcesses {

  private ChildProcesses() {
  }

  public static Process start(ProcessBuilder builder) throws IOException {
    TaskScope scope = TaskScope.current();
    if (scope == null) {
      return builder.start();
    }
    Placed placed = new Placed(builder, scope);
    try {
      return builder.start();
    } finally {
      placed.undo();
    }
  }

  public static List<Process> startPipeline(List<ProcessBuilder> builders) throws IOException {
    TaskScope scope = TaskScope.current();
    if (scope == null) {
      return ProcessBuilder.startPipeline(builders);
    }
    List<Placed> placed = new ArrayList<>();
    try {
      for (ProcessBuilder builder : builders) {
        placed.add(new Placed(builder, scope));
      }
      return ProcessBuilder.startPipeline(builders);
    } finally {
      for (Placed p : placed) {
        p.undo();
      }
    }
  }

  public static Process exec(Runtime runtime, String command) throws IOException {
    return exec(runtime, command, null, null);
  }

  public static Process exec(Runtime runtime, String command, String[] envp) throws IOException {
    return exec(runtime, command, envp, null);
  }

  public static Process exec(Runtime runtime, String command, String[] envp, File dir) throws IOException {
    TaskScope scope = TaskScope.current();
    if (scope == null) {
      return runtime.exec(command, envp, dir);
    }
    return runtime.exec(command, environment(envp, dir, scope), directory(dir, scope));
  }

  public static Process exec(Runtime runtime, String[] command) throws IOException {
    return exec(runtime, command, null, null);
  }

  public static Process exec(Runtime runtime, String[] command, String[] envp) throws IOException {
    return exec(runtime, command, envp, null);
  }

  public static Process exec(Runtime runtime, String[] command, String[] envp, File dir) throws IOException {
    TaskScope scope = TaskScope.current();
    if (scope == null) {
      return runtime.exec(command, envp, dir);
    }
    return runtime.exec(command, environment(envp, dir, scope), directory(dir, scope));
  }

  private static File directory(File dir, TaskScope scope) {
    return dir == null ? scope.workDir() : TaskPaths.resolve(dir);
  }

  /** The inherited environment with {@code PWD} set, when the child starts in the working directory. */
  private static String[] environment(String[] envp, File dir, TaskScope scope) {
    if (envp != null || dir != null) {
      return envp;
    }
    List<String> env = new ArrayList<>();
    for (Map.Entry<String, String> e : System.getenv().entrySet()) {
      if (!e.getKey().equals("PWD")) {
        env.add(e.getKey() + "=" + e.getValue());
      }
    }
    env.add("PWD=" + scope.workDir().getPath());
    return env.toArray(new String[0]);
  }

  /** A builder moved to the task's directory until {@link #undo}. */
  private static final class Placed {
    private final ProcessBuilder builder;
    private final File directory;
    private final Redirect input;
    private final Redirect output;
    private final Redirect error;
    private final boolean pwdSet;
    private final String pwd;

    Placed(ProcessBuilder builder, TaskScope scope) {
      this.builder = builder;
      this.directory = builder.directory();
      this.input = builder.redirectInput();
      this.output = builder.redirectOutput();
      this.error = builder.redirectError();
      builder.directory(directory(directory, scope));
      builder.redirectInput(resolve(input));
      builder.redirectOutput(resolve(output));
      builder.redirectError(resolve(error));
      Map<String, String> env = builder.environment();
      pwdSet = directory == null;
      pwd = env.get("PWD");
      if (pwdSet) {
        env.put("PWD", builder.directory().getPath());
      }
    }

    private static Redirect resolve(Redirect redirect) {
      File file = redirect.file();
      if (file == null || file.isAbsolute()) {
        return redirect;
      }
      File resolved = TaskPaths.resolve(file);
      return switch (redirect.type()) {
        case READ -> Redirect.from(resolved);
        case WRITE -> Redirect.to(resolved);
        case APPEND -> Redirect.appendTo(resolved);
        default -> redirect;
      };
    }

    void undo() {
      builder.directory(directory);
      builder.redirectInput(input);
      builder.redirectOutput(output);
      builder.redirectError(error);
      if (pwdSet) {
        if (pwd == null) {
          builder.environment().remove("PWD");
        } else {
          builder.environment().put("PWD", pwd);
        }
      }
    }
  }
}
