package io.vivace.realcluster;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A command run to its end, its output kept: {@code ./vivace ...} or a bash script. */
final class Run {

  /** How a command ended and what it printed. */
  record Result(List<String> command, int exitCode, String stdout, String stderr) {
    String describe() {
      return "`" + String.join(" ", command) + "` exited " + exitCode + "\n--- stdout:\n" + stdout
          + "\n--- stderr:\n" + tail(stderr, 12_000);
    }

    private static String tail(String text, int chars) {
      return text.length() <= chars ? text : "..." + text.substring(text.length() - chars);
    }
  }

  private final List<String> command = new ArrayList<>();
  private final Map<String, String> env = new HashMap<>();
  private Path directory;
  private long timeoutSeconds = 600;

  Run(List<String> command) {
    this.command.addAll(command);
    // The machine's environment, without what would point the command at another Hadoop or Vivace.
    System.getenv().forEach((key, value) -> {
      if (!key.startsWith("HADOOP_") && !key.startsWith("VIVACE_") && !key.equals("CLASSPATH")) {
        env.put(key, value);
      }
    });
  }

  Run env(String key, String value) {
    env.put(key, value);
    return this;
  }

  Run in(Path directory) {
    this.directory = directory;
    return this;
  }

  Run timeoutSeconds(long seconds) {
    this.timeoutSeconds = seconds;
    return this;
  }

  Result run() throws IOException, InterruptedException {
    Path out = Files.createTempFile("run-", ".out");
    Path err = Files.createTempFile("run-", ".err");
    try {
      ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile())
          .redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      builder.environment().clear();
      builder.environment().putAll(env);
      if (directory != null) {
        builder.directory(directory.toFile());
      }
      Process process = builder.start();
      if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor();
        throw new IOException("`" + String.join(" ", command) + "` did not end within " + timeoutSeconds
            + " s; its output so far:\n" + text(out) + "\n" + text(err));
      }
      return new Result(List.copyOf(command), process.exitValue(), text(out), text(err));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /** What the command printed; bytes that are not UTF-8 (a binary file's) become U+FFFD. */
  private static String text(Path file) throws IOException {
    return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
  }
}
