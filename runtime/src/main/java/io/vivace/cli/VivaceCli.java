package io.vivace.cli;

import java.util.Arrays;

/**
 * Entry point the {@code vivace} script starts: {@code VivaceCli jar JAR [MainClass] [args...]}.
 *
 * <p>When the program's {@code main} returns, this returns too, so the JVM ends with status 0 once
 * the program's non-daemon threads are done; a program's own {@code System.exit} sets the status.
 * A failed launch or a {@code main} that throws ends the JVM with status 1.
 */
public final class VivaceCli {

  static final String USAGE = "Usage: vivace jar <jar> [mainClass] args...";

  private VivaceCli() {}

  public static void main(String[] args) {
    try {
      run(args);
    } catch (LaunchException e) {
      System.err.println(e.getMessage());
      System.exit(1);
    } catch (MainThrewException e) {
      System.err.print("Exception in thread \"" + Thread.currentThread().getName() + "\" ");
      e.getCause().printStackTrace();
      System.exit(1);
    }
  }

  static void run(String[] args) throws LaunchException, MainThrewException {
    if (args.length == 0) {
      throw new LaunchException(USAGE);
    }
    String[] commandArgs = Arrays.copyOfRange(args, 1, args.length);
    switch (args[0]) {
      case "jar" -> new JarCommand().run(commandArgs);
      default -> throw new LaunchException("Unknown command: " + args[0] + "\n" + USAGE);
    }
  }
}
