package io.vivace.exec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Linux lets the kernel fire a sleeping thread's timer up to its "timer slack" late (50 us by
 * default) so it can batch wake-ups. A worker sleeping 1 ms per task (the sleep job's maps) then
 * sleeps 1.10 to 1.15 ms; with the slack at 1 ns, 1.05 to 1.08 ms (two threads sleeping 1 ms in a
 * loop, side by side, on the 2-core machine the benchmark runs on). A thread may set its own slack
 * through {@code /proc/<its tid>/timerslack_ns} (Linux 4.6 and newer, no privilege needed); where
 * that file is missing or not writable, the default stays and nothing else changes.
 */
final class TimerSlack {

  /** The smallest slack the kernel takes: 0 would mean "back to the default". */
  static final long MINIMUM_NANOS = 1;

  private TimerSlack() {
  }

  /** Sets the calling thread's timer slack to {@link #MINIMUM_NANOS}; false when it could not. */
  static boolean minimiseForCurrentThread() {
    try {
      Files.writeString(currentThreadFile(), Long.toString(MINIMUM_NANOS), StandardCharsets.US_ASCII);
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** The calling thread's slack in nanoseconds; -1 where the system does not say. */
  static long currentThreadNanos() {
    try {
      return Long.parseLong(Files.readString(currentThreadFile(), StandardCharsets.US_ASCII).trim());
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * {@code /proc/<tid>/timerslack_ns} of the calling thread: the file exists only at the top level
   * of /proc, and {@code /proc/thread-self} links to {@code <pid>/task/<tid>}.
   */
  private static Path currentThreadFile() throws IOException {
    String threadSelf = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString();
    String tid = threadSelf.substring(threadSelf.lastIndexOf('/') + 1);
    return Path.of("/proc", tid, "timerslack_ns");
  }
}
