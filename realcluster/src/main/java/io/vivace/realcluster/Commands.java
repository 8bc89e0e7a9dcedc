package io.vivace.realcluster;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Runs the machine's tools ({@code ip}, {@code tc}) and reads what they print. */
final class Commands {

  /** What a command printed and how it ended. */
  record Result(int status, String out, String err) {
    boolean ok() {
      return status == 0;
    }
  }

  private Commands() {}

  /** Runs the command; a non-zero exit fails, with the command and what it printed. */
  static String run(String... command) throws IOException {
    Result result = attempt(command);
    if (!result.ok()) {
      throw new IOException("`" + String.join(" ", command) + "` failed (exit status "
          + result.status() + "): " + result.err().strip());
    }
    return result.out();
  }

  /** Runs the command, whatever its exit status. */
  static Result attempt(String... command) throws IOException {
    Process process;
    try {
      process = new ProcessBuilder(List.of(command)).redirectInput(ProcessBuilder.Redirect.from(
          new java.io.File("/dev/null"))).start();
    } catch (IOException e) {
      throw new IOException("cannot run `" + String.join(" ", command) + "`: " + e.getMessage(), e);
    }
    CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
    String out = read(process.getInputStream());
    try {
      int status = process.waitFor();
      return new Result(status, out, err.join());
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while running " + String.join(" ", command));
    }
  }

  private static String read(java.io.InputStream in) {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
