package io.vivace.realcluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The processes of a cluster: its daemons and everything they started (YARN's containers, their
 * children). Found three ways, so that none survives {@code down}: every process in a host's
 * namespace, the daemons' pid files, and any process of this machine whose command line names the
 * cluster's hosts' or installation's folders, or whose working directory is under them.
 */
final class ClusterProcesses {

  private static final Path PROC = Path.of("/proc");
  static final long TERM_GRACE_MS = 20_000;
  static final long KILL_WAIT_MS = 10_000;

  private ClusterProcesses() {}

  static Set<Long> find(Optional<ClusterState> state, ClusterFiles files) throws IOException {
    Set<Long> pids = new TreeSet<>();
    if (state.isPresent()) {
      for (Host host : state.get().hosts()) {
        if (state.get().namespaces()) {
          pids.addAll(NamespaceNetwork.pids(host));
        }
        for (Daemon daemon : host.daemons()) {
          daemonPid(files, host, daemon).ifPresent(pids::add);
        }
      }
    }
    pids.addAll(referringTo(files));
    ProcessHandle self = ProcessHandle.current();
    for (Optional<ProcessHandle> p = Optional.of(self); p.isPresent(); p = p.get().parent()) {
      pids.remove(p.get().pid());
    }
    return pids;
  }

  /** The daemon's pid when its pid file names a live process that is the daemon. */
  static Optional<Long> daemonPid(ClusterFiles files, Host host, Daemon daemon) throws IOException {
    Path file = files.pidFile(host, daemon);
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    long pid;
    try {
      pid = Long.parseLong(Files.readString(file).strip());
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    String cmdline = commandLine(pid);
    return cmdline.contains(daemon.mainClass) && cmdline.contains(files.host(host).toString())
        ? Optional.of(pid) : Optional.empty();
  }

  private static List<Long> referringTo(ClusterFiles files) throws IOException {
    String hosts = files.dir().resolve("hosts") + "/";
    String install = files.hadoopHome() + "/";
    List<Long> found = new ArrayList<>();
    try (Stream<Path> entries = Files.list(PROC)) {
      for (Path entry : entries.toList()) {
        String name = entry.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        long pid = Long.parseLong(name);
        String cmdline = commandLine(pid);
        if (cmdline.contains(hosts) || cmdline.contains(install) || workingDirectory(pid).startsWith(hosts)) {
          found.add(pid);
        }
      }
    }
    return found;
  }

  /** The process's command line, arguments separated by spaces; empty once it is gone. */
  static String commandLine(long pid) {
    try {
      byte[] raw = Files.readAllBytes(PROC.resolve(Long.toString(pid)).resolve("cmdline"));
      return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ');
    } catch (IOException e) {
      return "";
    }
  }

  private static String workingDirectory(long pid) {
    try {
      return Files.readSymbolicLink(PROC.resolve(Long.toString(pid)).resolve("cwd")) + "/";
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return "";
    }
  }

  /**
   * Sends SIGTERM to every process, SIGKILL to those still there after {@value #TERM_GRACE_MS}
   * ms; returns the pids that outlived that too.
   */
  static Set<Long> stop(Set<Long> pids) {
    pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy));
    Set<Long> left = waitForEnd(pids, TERM_GRACE_MS);
    left.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    return waitForEnd(left, KILL_WAIT_MS);
  }

  private static Set<Long> waitForEnd(Set<Long> pids, long timeoutMs) {
    long deadline = System.currentTimeMillis() + timeoutMs;
    Set<Long> alive = new TreeSet<>(pids);
    while (true) {
      alive.removeIf(pid -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
      if (alive.isEmpty() || System.currentTimeMillis() > deadline) {
        return alive;
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return alive;
      }
    }
  }
}
