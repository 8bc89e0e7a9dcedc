package io.vivace.cluster.session;

import io.vivace.cluster.ContainerSpec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.UpdatedContainer;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.async.AMRMClientAsync;
import org.apache.hadoop.yarn.client.api.async.NMClientAsync;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The session's executor containers, through YARN: asks the ResourceManager for as many as the work
 * waiting calls for (at least the minimum, at most the maximum), starts an executor JVM in each as it
 * is given, gives back executors idle beyond the minimum after their idle timeout, and tells the
 * dispatcher when a container ends (an executor lost).
 */
final class ExecutorContainers {

  private static final Logger LOG = LoggerFactory.getLogger(ExecutorContainers.class);
  private static final Priority PRIORITY = Priority.newInstance(1);

  /** How executors are launched and sized. */
  record Settings(int min, int max, int memoryMb, int vcores, int slots, long idleNanos, String amAddress) {
  }

  private final Settings settings;
  private final ContainerSpec spec;
  private final ByteBuffer tokens;
  private final Dispatcher dispatcher;
  private final AMRMClientAsync<AMRMClient.ContainerRequest> resourceManager;
  private final NMClientAsync nodeManagers;
  /** Containers started or asked for, and since when each executor was idle. */
  private final Map<ContainerId, Container> started = new HashMap<>();
  private final Map<Integer, Long> idleSince = new HashMap<>();
  private int requested;
  private volatile boolean shutdownRequested;

  ExecutorContainers(Settings settings, ContainerSpec spec, ByteBuffer tokens, Dispatcher dispatcher,
                     YarnConfiguration conf) {
    this.settings = settings;
    this.spec = spec;
    this.tokens = tokens;
    this.dispatcher = dispatcher;
    this.resourceManager = AMRMClientAsync.createAMRMClientAsync(200, new ResourceManagerEvents());
    this.resourceManager.init(conf);
    this.nodeManagers = NMClientAsync.createNMClientAsync(new NodeManagerEvents());
    this.nodeManagers.init(conf);
  }

  void start(String host, int rpcPort, String trackingUrl) throws Exception {
    resourceManager.start();
    nodeManagers.start();
    resourceManager.registerApplicationMaster(host, rpcPort, trackingUrl);
  }

  /** Whether the ResourceManager asked the session to end. */
  boolean shutdownRequested() {
    return shutdownRequested;
  }

  /** Asks for more executors when work waits, gives back idle ones: called by the monitor. */
  synchronized void balance(long now) {
    int have = started.size() + requested;
    int queued = dispatcher.queuedLaunches();
    int wanted = Math.max(settings.min(), Math.min(settings.max(),
        started.size() + (queued + settings.slots() - 1) / settings.slots()));
    for (int i = have; i < wanted; i++) {
      Resource size = Resource.newInstance(settings.memoryMb(), settings.vcores());
      resourceManager.addContainerRequest(new AMRMClient.ContainerRequest(size, null, null, PRIORITY));
      requested++;
    }
    List<Dispatcher.Executor> idle = dispatcher.idleExecutors();
    java.util.Set<Integer> idleIds = new java.util.HashSet<>();
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
        ContainerId container = ContainerId.fromString(executor.info.containerId());
        LOG.info("Releasing idle " + executor.name());
        dispatcher.executorLost(executor.id, "released: idle for " + settings.idleNanos() / 1_000_000_000L + " s");
        Container c = started.remove(container);
        idleSince.remove(executor.id);
        resourceManager.releaseAssignedContainer(container);
        if (c != null) {
          nodeManagers.stopContainerAsync(container, c.getNodeId());
        }
      }
    }
  }

  void stop(FinalApplicationStatus status, String message) {
    try {
      resourceManager.unregisterApplicationMaster(status, message, null);
    } catch (Exception e) {
      LOG.warn("could not unregister the session from the ResourceManager: " + e);
    }
    nodeManagers.stop();
    resourceManager.stop();
  }

  private void launch(Container container) {
    List<String> args = List.of(settings.amAddress(), Integer.toString(settings.slots()),
        container.getId().toString());
    int heapMb = (int) (settings.memoryMb() * 0.8);
    nodeManagers.startContainerAsync(container, spec.launchContext(
        "io.vivace.cluster.executor.ExecutorMain", args, heapMb, Map.of(), tokens));
  }

  private final class ResourceManagerEvents extends AMRMClientAsync.AbstractCallbackHandler {
    @Override
    public void onContainersAllocated(List<Container> containers) {
      synchronized (ExecutorContainers.this) {
        for (Container container : containers) {
          if (requested > 0) {
            requested--;
            resourceManager.removeContainerRequest(new AMRMClient.ContainerRequest(container.getResource(), null,
                null, PRIORITY));
          }
          started.put(container.getId(), container);
          LOG.info("Starting an executor in " + container.getId() + " on " + container.getNodeId());
          launch(container);
        }
      }
    }

    @Override
    public void onContainersCompleted(List<ContainerStatus> statuses) {
      List<ContainerStatus> lost = new ArrayList<>();
      synchronized (ExecutorContainers.this) {
        for (ContainerStatus status : statuses) {
          if (started.remove(status.getContainerId()) != null) {
            lost.add(status);
          }
        }
      }
      for (ContainerStatus status : lost) {
        Integer executor = dispatcher.executorOf(status.getContainerId().toString());
        String why = "container " + status.getContainerId() + " ended with exit status " + status.getExitStatus()
            + (status.getDiagnostics().isEmpty() ? "" : ": " + status.getDiagnostics().trim());
        LOG.warn(why);
        if (executor != null) {
          dispatcher.executorLost(executor, why);
        }
      }
    }

    @Override
    public void onContainersUpdated(List<UpdatedContainer> containers) {
    }

    @Override
    public void onShutdownRequest() {
      shutdownRequested = true;
    }

    @Override
    public void onNodesUpdated(List<NodeReport> updatedNodes) {
    }

    @Override
    public float getProgress() {
      return 0f;
    }

    @Override
    public void onError(Throwable e) {
      LOG.error("ResourceManager error; the session ends", e);
      shutdownRequested = true;
    }
  }

  private final class NodeManagerEvents extends NMClientAsync.AbstractCallbackHandler {
    @Override
    public void onContainerStarted(ContainerId containerId, Map<String, ByteBuffer> allServiceResponse) {
    }

    @Override
    public void onContainerStatusReceived(ContainerId containerId,
                                          org.apache.hadoop.yarn.api.records.ContainerStatus containerStatus) {
    }

    @Override
    public void onContainerStopped(ContainerId containerId) {
    }

    @Override
    public void onStartContainerError(ContainerId containerId, Throwable t) {
      LOG.error("could not start an executor in " + containerId, t);
      synchronized (ExecutorContainers.this) {
        started.remove(containerId);
      }
      resourceManager.releaseAssignedContainer(containerId);
    }

    @Override
    public void onContainerResourceIncreased(ContainerId containerId,
                                             org.apache.hadoop.yarn.api.records.Resource resource) {
    }

    @Override
    public void onContainerResourceUpdated(ContainerId containerId,
                                           org.apache.hadoop.yarn.api.records.Resource resource) {
    }

    @Override
    public void onGetContainerStatusError(ContainerId containerId, Throwable t) {
    }

    @Override
    public void onIncreaseContainerResourceError(ContainerId containerId, Throwable t) {
    }

    @Override
    public void onUpdateContainerResourceError(ContainerId containerId, Throwable t) {
    }

    @Override
    public void onStopContainerError(ContainerId containerId, Throwable t) {
    }
  }
}
