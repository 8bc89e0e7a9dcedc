package io.vivace.fs.lustre;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Gives new files the configured stripe layout with {@code lfs setstripe -c COUNT -S SIZE FILE}
 * (which creates the empty file with that layout) where the {@code lfs} tool exists, and says
 * what it did: {@link #status()} is "applied ...", "not applied: ..." or "none requested". Where
 * the tool exists but fails (the root is not on Lustre, a bad layout) creating the file fails with
 * its message; with {@code fs.lustre.stripe.required=true} so does a missing tool.
 */
final class StripeLayout {

  static final String NONE = "none requested";

  private final LustreSettings settings;
  private final String tool;
  private final String status;

  StripeLayout(LustreSettings settings) throws IOException {
    this.settings = settings;
    this.tool = settings.stripeRequested() ? find(settings.lfs()) : null;
    if (!settings.stripeRequested()) {
      status = NONE;
    } else if (tool == null) {
      status = "not applied: no '" + settings.lfs() + "' tool (" + LustreSettings.LFS
          + ") on this machine";
      if (settings.stripeRequired()) {
        throw new IOException("stripe layout requested (" + describe() + ") with "
            + LustreSettings.STRIPE_REQUIRED + "=true, but " + status);
      }
    } else {
      status = "applied with " + tool + " setstripe: " + describe();
    }
  }

  String status() {
    return status;
  }

  private String describe() {
    return "count " + settings.stripeCount() + ", size " + settings.stripeSize();
  }

  /** Creates {@code file} empty with the layout when the tool is there; else does nothing. */
  void apply(Path file) throws IOException {
    if (tool == null) {
      return;
    }
    List<String> command = new ArrayList<>(List.of(tool, "setstripe"));
    if (settings.stripeCount() != 0) {
      command.addAll(List.of("-c", Integer.toString(settings.stripeCount())));
    }
    if (settings.stripeSize() > 0) {
      command.addAll(List.of("-S", Long.toString(settings.stripeSize())));
    }
    command.add(file.toString());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output;
    try {
      output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException(String.join(" ", command) + " did not finish in 60 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running " + String.join(" ", command), e);
    }
    if (process.exitValue() != 0) {
      throw new IOException("could not apply the stripe layout to " + file + ": '"
          + String.join(" ", command) + "' exited with " + process.exitValue() + ": " + output);
    }
  }

  /** The tool's executable: the name as a path if it has a slash, else looked up on PATH. */
  private static String find(String name) {
    if (name.contains(File.separator)) {
      return Files.isExecutable(Path.of(name)) ? name : null;
    }
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
      if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)) {
        return candidate.toString();
      }
    }
    return null;
  }
}
