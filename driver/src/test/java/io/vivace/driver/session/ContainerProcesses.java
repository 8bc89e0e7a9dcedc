package io.vivace.driver.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The JVMs the mini-cluster's NodeManagers started for containers (processes of this host), found by
 * their command lines, and killed for real, as a crash or the kernel's OOM killer would.
 */
final class ContainerProcesses {

  private ContainerProcesses() {
  }

  /** The one Java process whose command line holds every one of {@code marks}. */
  static ProcessHandle javaWith(String... marks) {
    List<ProcessHandle> found = allJavaWith(marks);
    assertEquals(1, found.size(), "Java processes running " + Arrays.toString(marks) + ": " + found);
    return found.get(0);
  }

  /** The Java processes whose command lines hold every one of {@code marks}. */
  static List<ProcessHandle> allJavaWith(String... marks) {
    return ProcessHandle.allProcesses().filter(p -> {
      String command = p.info().command().orElse("");
      String line = p.info().commandLine().orElse("");
      return command.endsWith("/java") && Arrays.stream(marks).allMatch(line::contains);
    }).toList();
  }

  /** SIGKILL, and waits until the process is gone. */
  static void kill(ProcessHandle process) throws Exception {
    process.destroyForcibly();
    process.onExit().get(1, TimeUnit.MINUTES);
  }
}
