package io.vivace.realcluster;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Faults of one host of a running cluster, for fault tests: {@code vivace cluster kill} (every
 * process of the host SIGKILLed at once, as when its power goes: its namespace and link stay; or
 * one daemon's JVM only) and {@code vivace cluster link} (its link cut, restored, or shaped to
 * another rate, both directions).
 */
final class HostFault {

  /** What {@code --to} may say besides a rate. */
  static final String DOWN = "down";
  static final String UP = "up";

  private HostFault() {}

  /** The host named {@code name} (its namespace's name, or its host name), failing when there is none. */
  static Host host(ClusterState state, String name) {
    for (Host host : state.hosts()) {
      if (host.name().equals(name) || host.hostname().equals(name)) {
        return host;
      }
    }
    throw new IllegalArgumentException("--host " + name + ": the cluster has no such host; its hosts are "
        + state.hosts().stream().map(Host::name).toList());
  }

  /**
   * The commands that take the host's link to {@code to}: {@code down} (its end on the bridge down:
   * nothing goes in or out), {@code up}, {@code none} (unshaped) or a rate such as {@code 100mbit}
   * (both ends shaped to it, as {@code up --link} shapes them).
   */
  static List<List<String>> linkPlan(ClusterState state, Host host, String to) {
    if (!state.namespaces()) {
      throw new IllegalArgumentException("the cluster runs without namespaces (--no-netns): its hosts have no links");
    }
    String outer = host.name();
    List<String> inside = List.of("tc", "-n", host.name());
    List<List<String>> plan = new ArrayList<>();
    switch (to) {
      case DOWN -> plan.add(List.of("ip", "link", "set", outer, "down"));
      case UP -> plan.add(List.of("ip", "link", "set", outer, "up"));
      default -> {
        LinkRate rate = LinkRate.parse(to);
        plan.add(List.of("tc", "qdisc", "del", "dev", outer, "root")); // htb's root cannot be changed in place
        plan.add(NamespaceNetwork.command(inside, "qdisc", "del", "dev", NamespaceNetwork.HOST_INTERFACE, "root"));
        if (rate.shaped()) {
          plan.addAll(NamespaceNetwork.shapePlan(rate, List.of("tc"), outer));
          plan.addAll(NamespaceNetwork.shapePlan(rate, inside, NamespaceNetwork.HOST_INTERFACE));
        }
      }
    }
    return plan;
  }

  /** Takes the host's link to {@code to} ({@link #linkPlan}). */
  static void link(ClusterState state, Host host, String to) throws IOException {
    for (List<String> command : linkPlan(state, host, to)) {
      Commands.Result result = Commands.attempt(command.toArray(new String[0]));
      if (!result.ok() && !command.contains("del")) { // a link without shaping has nothing to delete
        throw new IOException("`" + String.join(" ", command) + "` failed: " + result.err().strip());
      }
    }
  }

  /** SIGKILLs every process of the host at once; returns how many there were. */
  static int kill(ClusterState state, Host host) throws IOException {
    if (!state.namespaces()) {
      throw new IllegalArgumentException("the cluster runs without namespaces (--no-netns): its hosts share one");
    }
    List<Long> pids = NamespaceNetwork.pids(host);
    for (long pid : pids) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
    return pids.size();
  }

  /**
   * SIGKILLs one daemon of the host, its JVM only, as when that process dies: what it started (a
   * NodeManager's containers) lives on. Returns once the JVM is gone; false when it did not run.
   */
  static boolean killDaemon(ClusterFiles files, Host host, Daemon daemon) throws IOException {
    Optional<ProcessHandle> process = ClusterProcesses.daemonPid(files, host, daemon).flatMap(ProcessHandle::of);
    if (process.isEmpty()) {
      return false;
    }
    process.get().destroyForcibly();
    try {
      process.get().onExit().get(ClusterProcesses.KILL_WAIT_MS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while the " + daemon.command + " of " + host.name() + " died");
    } catch (ExecutionException | TimeoutException e) {
      throw new IOException("the " + daemon.command + " of " + host.name() + " (pid " + process.get().pid()
          + ") outlived SIGKILL for " + ClusterProcesses.KILL_WAIT_MS / 1000 + " s");
    }
    return true;
  }
}
