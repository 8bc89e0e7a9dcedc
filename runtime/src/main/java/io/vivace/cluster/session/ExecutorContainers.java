package io.vivace.cluster.session;

import io.vivace.cluster.ContainerSpec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.Resource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The session's executor containers, through YARN ({@link YarnClients}): asks the ResourceManager
 * for as many as the work waiting calls for (at least the minimum, never more than the maximum,
 * counting those asked for and those starting), each on a host of the waiting maps' input that has
 * no executor yet where there is one ({@link ExecutorPlacement}), takes back requests no longer
 * needed, gives back at once any container beyond the maximum (YARN may give more than it was asked
 * for), starts an executor JVM in each container kept, gives back executors idle beyond the minimum
 * after their idle timeout, and tells the dispatcher when a container ends (an executor lost).
 */
final class ExecutorContainers implements YarnClients.Events {

  private static final Logger LOG = LoggerFactory.getLogger(ExecutorContainers.class);

  /** How executors are launched and sized. */
  record Settings(int min, int max, int memoryMb, int vcores, int slots, long idleNanos) {
  }

  private final Settings settings;
  private final ContainerSpec spec;
  private final ByteBuffer tokens;
  private final Dispatcher dispatcher;
  private final YarnClients yarn;
  private final Resource size;
  /** Containers given and launched (their executor may not have joined yet). */
  private final Map<ContainerId, Container> started = new LinkedHashMap<>();
  /** Since when (nanos) each idle executor has been idle. */
  private final Map<Integer, Long> idleSince = new HashMap<>();
  /**
   * Containers asked for and not given yet, oldest first, each as the nodes it was asked on (none:
   * anywhere); since when the oldest of them was asked for.
   */
  private final List<List<String>> asked = new ArrayList<>();
  private long requestedSinceNanos;
  private volatile String lost;
  /** Why no executor can ever be given (too large for YARN); null when they can. */
  private String tooLarge;
  /** Where executors reach the session's master ({@code host:port}). */
  private String masterAddress;

  ExecutorContainers(Settings settings, ContainerSpec spec, ByteBuffer tokens, Dispatcher dispatcher, YarnClients yarn) {
    this.settings = settings;
    this.spec = spec;
    this.tokens = tokens;
    this.dispatcher = dispatcher;
    this.yarn = yarn;
    this.size = Resource.newInstance(settings.memoryMb(), settings.vcores());
  }

  /** Registers the session with YARN; executors will reach the master at {@code host:rpcPort}. */
  void start(String host, int rpcPort, String trackingUrl) throws Exception {
    synchronized (this) {
      masterAddress = host + ":" + rpcPort;
    }
    Resource largest = yarn.start(this, host, rpcPort, trackingUrl);
    synchronized (this) {
      if (largest != null && (size.getMemorySize() > largest.getMemorySize()
          || size.getVirtualCores() > largest.getVirtualCores())) {
        tooLarge = "the session's executors need " + settings.memoryMb() + " MB and " + settings.vcores()
            + " vcores (vivace.session.executor.memory.mb, vivace.session.executor.vcores), more than the largest "
            + "container YARN gives: " + largest.getMemorySize() + " MB and " + largest.getVirtualCores()
            + " vcores (yarn.scheduler.maximum-allocation-mb and -vcores, or the cluster's largest node)";
        LOG.error("No executor can start: " + tooLarge);
      }
    }
  }

  /** Why the ResourceManager is lost to the session (it asked the session to end, or cannot be reached); null while it is not. */
  String resourceManagerLost() {
    return lost;
  }

  /** Containers given and launched (their executors joined or starting). */
  synchronized int startedContainers() {
    return started.size();
  }

  /** Asks for more executors when work waits, takes back requests not needed, gives back idle ones: called by the monitor. */
  synchronized void balance(long now) {
    if (tooLarge != null) {
      return; // YARN would refuse the requests, and the session with them
    }
    int queued = dispatcher.queuedLaunches();
    int starting = 0;
    for (ContainerId container : started.keySet()) {
      if (dispatcher.executorOf(container.toString()) == null) {
        starting++;
      }
    }
    int unserved = queued - dispatcher.freeSlots() - starting * settings.slots();
    int more = unserved <= 0 ? 0 : (unserved + settings.slots() - 1) / settings.slots();
    int wanted = Math.max(settings.min(), Math.min(settings.max(), started.size() + more));
    int have = started.size() + asked.size();
    if (have < wanted) {
      if (asked.isEmpty()) {
        requestedSinceNanos = now;
      }
      List<String> hosts = ExecutorPlacement.hostsFor(wanted - have, dispatcher.queuedMapHosts(), takenHosts());
      for (int i = have; i < wanted; i++) {
        List<String> nodes = i - have < hosts.size() ? List.of(hosts.get(i - have)) : List.of();
        yarn.requestContainer(size, nodes);
        asked.add(nodes);
      }
      LOG.info("Asked YARN for " + (wanted - have) + " executor containers of " + size
          + (hosts.isEmpty() ? "" : ", on " + hosts + " first") + " (" + started.size() + " started, " + asked.size()
          + " asked for; " + queued + " launches wait)");
    } else if (have > wanted && !asked.isEmpty()) {
      int cancel = Math.min(asked.size(), have - wanted);
      for (int i = 0; i < cancel; i++) {
        yarn.cancelRequest(size, asked.remove(asked.size() - 1));
      }
    }
    releaseIdle(now, queued);
  }

  /** Hosts with an executor's container, or one asked for. */
  private List<String> takenHosts() {
    List<String> taken = new ArrayList<>();
    for (Container container : started.values()) {
      taken.add(container.getNodeId().getHost());
    }
    for (List<String> nodes : asked) {
      taken.addAll(nodes);
    }
    return taken;
  }

  /**
   * The request a container given on {@code host} answers: one asked on its host, else one asked
   * anywhere, else the oldest (YARN relaxed its node); null when none is outstanding.
   */
  private List<String> answeredBy(String host) {
    for (List<String> nodes : asked) {
      if (nodes.stream().anyMatch(host::equalsIgnoreCase)) {
        return nodes;
      }
    }
    for (List<String> nodes : asked) {
      if (nodes.isEmpty()) {
        return nodes;
      }
    }
    return asked.isEmpty() ? null : asked.get(0);
  }

  private void releaseIdle(long now, int queued) {
    Set<Integer> idleIds = new HashSet<>();
    List<Dispatcher.Executor> idle = dispatcher.idleExecutors();
    for (Dispatcher.Executor executor : idle) {
      idleIds.add(executor.id);
      idleSince.putIfAbsent(executor.id, now);
    }
    idleSince.keySet().retainAll(idleIds);
    if (queued > 0) {
      return;
    }
    for (Dispatcher.Executor executor : idle) {
      if (started.size() <= settings.min()) {
        break;
      }
      if (now - idleSince.get(executor.id) > settings.idleNanos()) {
        LOG.info("Releasing idle " + executor.name());
        dispatcher.executorLost(executor.id, "released: idle for " + settings.idleNanos() / 1_000_000_000L + " s");
        idleSince.remove(executor.id);
        stopContainer(ContainerId.fromString(executor.info.containerId()));
      }
    }
  }

  /** Stops an executor's container (lost to the session while it may still run) and gives it back. */
  synchronized void stopContainer(ContainerId container) {
    Container c = started.remove(container);
    if (c != null) {
      yarn.stopAndRelease(c);
    }
  }

  /**
   * What a job whose work waits without a slot waits for, as the session sees it: its executors,
   * and what YARN has and has not given it.
   */
  synchronized String whyWaiting(long now) {
    int executors = dispatcher.executorCount();
    int slots = dispatcher.slots();
    if (tooLarge != null) {
      return "no executor can start: " + tooLarge;
    }
    if (!asked.isEmpty()) {
      Resource headroom = yarn.headroom();
      boolean roomless = headroom != null && (headroom.getMemorySize() < size.getMemorySize()
          || headroom.getVirtualCores() < size.getVirtualCores());
      return "the session has " + executors + " executors (" + slots + " slots, vivace.session.executors.max="
          + settings.max() + ") and has waited " + (now - requestedSinceNanos) / 1_000_000_000L + " s for YARN to give it "
          + asked.size() + " more containers of " + settings.memoryMb() + " MB and " + settings.vcores() + " vcores"
          + (headroom == null ? "" : "; YARN's headroom for the session is " + headroom.getMemorySize() + " MB and "
          + headroom.getVirtualCores() + " vcores")
          + (roomless ? ": other applications hold the cluster's (or the queue's) resources" : "");
    }
    if (started.size() > executors) {
      return "the session has " + executors + " executors (" + slots + " slots) and " + (started.size() - executors)
          + " starting";
    }
    return "all " + slots + " slots of the session's " + executors + " executors run other jobs' attempts"
        + (executors >= settings.max() ? " (vivace.session.executors.max=" + settings.max() + ")" : "");
  }

  /** The session ends: unregisters from YARN (unless its ResourceManager is lost), stops YARN's clients. */
  void stop(FinalApplicationStatus status, String message) {
    yarn.finish(status, message, lost == null);
  }

  private void launch(Container container) {
    List<String> args = List.of(masterAddress, Integer.toString(settings.slots()),
        container.getId().toString());
    int heapMb = (int) (settings.memoryMb() * 0.8);
    yarn.launch(container, spec.launchContext("io.vivace.cluster.executor.ExecutorMain", args, heapMb, Map.of(),
        tokens));
  }

  // ---- what YARN says ----------------------------------------------------------------------

  @Override
  public synchronized void allocated(List<Container> containers) {
    for (Container container : containers) {
      List<String> answered = answeredBy(container.getNodeId().getHost());
      if (answered != null) {
        asked.remove(answered);
        yarn.cancelRequest(size, answered); // given: no longer asked for
      }
      if (started.size() >= settings.max()) {
        LOG.info("Giving back " + container.getId() + " on " + container.getNodeId() + ": the session has "
            + started.size() + " executors, its maximum (vivace.session.executors.max)");
        yarn.release(container.getId());
        continue;
      }
      started.put(container.getId(), container);
      LOG.info("Starting an executor in " + container.getId() + " on " + container.getNodeId());
      launch(container);
    }
  }

  @Override
  public void completed(List<ContainerStatus> statuses) {
    List<ContainerStatus> lostContainers = new ArrayList<>();
    synchronized (this) {
      for (ContainerStatus status : statuses) {
        if (started.remove(status.getContainerId()) != null) {
          lostContainers.add(status);
        }
      }
    }
    for (ContainerStatus status : lostContainers) {
      String why = "its container " + status.getContainerId() + " ended with exit status " + status.getExitStatus()
          + (status.getDiagnostics().isEmpty() ? "" : ": " + status.getDiagnostics().trim());
      Integer executor = dispatcher.executorOf(status.getContainerId().toString());
      if (executor != null) {
        dispatcher.executorLost(executor, why);
      } else {
        LOG.warn("An executor that had not joined yet is lost: " + why);
      }
    }
  }

  @Override
  public void launchFailed(ContainerId container, Throwable cause) {
    LOG.error("could not start an executor in " + container, cause);
    synchronized (this) {
      started.remove(container);
    }
    yarn.release(container);
  }

  @Override
  public void resourceManagerLost(String why) {
    lost = why;
  }
}
