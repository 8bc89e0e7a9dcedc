package io.vivace.cluster.session;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
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
 * {@link YarnClients} over YARN's own asynchronous clients: {@link AMRMClientAsync} (heartbeats to
 * the ResourceManager every {@value #HEARTBEAT_MILLIS} ms) and {@link NMClientAsync}. The
 * ResourceManager is taken for lost once its client has tried to reach it for {@code rmTimeoutMs}
 * (YARN's own retries, {@code yarn.resourcemanager.connect.max-wait.ms}, set to it, with no retries
 * of Hadoop's RPC client under them).
 */
final class AsyncYarnClients implements YarnClients {

  private static final Logger LOG = LoggerFactory.getLogger(AsyncYarnClients.class);
  private static final int HEARTBEAT_MILLIS = 200;
  private static final Priority PRIORITY = Priority.newInstance(1);

  private final AMRMClientAsync<AMRMClient.ContainerRequest> resourceManager;
  private final NMClientAsync nodeManagers;
  /** The requests made and not taken back, by the nodes they name. */
  private final Map<List<String>, Deque<AMRMClient.ContainerRequest>> requests = new HashMap<>();
  private volatile Events events;

  AsyncYarnClients(Configuration conf, long rmTimeoutMs) {
    YarnConfiguration yarnConf = new YarnConfiguration(conf);
    // YARN's time-bounded retries decide; Hadoop's RPC client would retry each call ten times more
    yarnConf.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_KEY, 0);
    yarnConf.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_ON_SOCKET_TIMEOUTS_KEY, 0);
    yarnConf.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS, rmTimeoutMs);
    yarnConf.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS,
        Math.max(100, Math.min(rmTimeoutMs / 10, yarnConf.getLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS,
            YarnConfiguration.DEFAULT_RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS))));
    this.resourceManager = AMRMClientAsync.createAMRMClientAsync(HEARTBEAT_MILLIS, new ResourceManagerEvents());
    this.resourceManager.init(yarnConf);
    this.nodeManagers = NMClientAsync.createNMClientAsync(new NodeManagerEvents());
    this.nodeManagers.init(yarnConf);
    // at the session's end its executors stop by themselves, and YARN stops what is left of an
    // application once it ends; stopping each container from here would wait minutes for
    // NodeManagers that are gone
    this.nodeManagers.getClient().cleanupRunningContainersOnStop(false);
  }

  @Override
  public Resource start(Events events, String host, int rpcPort, String trackingUrl) throws Exception {
    this.events = events;
    resourceManager.start();
    nodeManagers.start();
    return resourceManager.registerApplicationMaster(host, rpcPort, trackingUrl).getMaximumResourceCapability();
  }

  @Override
  public void requestContainer(Resource size, List<String> nodes) {
    AMRMClient.ContainerRequest request = request(size, nodes);
    synchronized (requests) {
      requests.computeIfAbsent(List.copyOf(nodes), n -> new ArrayDeque<>()).add(request);
    }
    resourceManager.addContainerRequest(request);
  }

  @Override
  public void cancelRequest(Resource size, List<String> nodes) {
    AMRMClient.ContainerRequest request;
    synchronized (requests) {
      Deque<AMRMClient.ContainerRequest> made = requests.get(nodes);
      request = made == null ? null : made.poll();
      if (made != null && made.isEmpty()) {
        requests.remove(nodes);
      }
    }
    // the request made: YARN's client also forgets it among those it matches containers with
    resourceManager.removeContainerRequest(request != null ? request : request(size, nodes));
  }

  /**
   * Relaxed locality on every request (YARN refuses requests of one priority that mix relaxed and
   * strict locality at a location); YARN's client adds the racks of the nodes named, and the cluster.
   */
  private static AMRMClient.ContainerRequest request(Resource size, List<String> nodes) {
    return new AMRMClient.ContainerRequest(size, nodes.isEmpty() ? null : nodes.toArray(new String[0]), null,
        PRIORITY, true);
  }

  @Override
  public void launch(Container container, ContainerLaunchContext context) {
    nodeManagers.startContainerAsync(container, context);
  }

  @Override
  public void stopAndRelease(Container container) {
    nodeManagers.stopContainerAsync(container.getId(), container.getNodeId());
    resourceManager.releaseAssignedContainer(container.getId());
  }

  @Override
  public void release(ContainerId container) {
    resourceManager.releaseAssignedContainer(container);
  }

  @Override
  public Resource headroom() {
    return resourceManager.getAvailableResources();
  }

  @Override
  public void finish(FinalApplicationStatus status, String message, boolean unregister) {
    if (unregister) {
      try {
        resourceManager.unregisterApplicationMaster(status, message, null);
      } catch (Exception e) {
        LOG.warn("could not unregister the session from the ResourceManager: " + e);
      }
    }
    nodeManagers.stop();
    resourceManager.stop();
  }

  private final class ResourceManagerEvents extends AMRMClientAsync.AbstractCallbackHandler {
    @Override
    public void onContainersAllocated(List<Container> containers) {
      events.allocated(containers);
    }

    @Override
    public void onContainersCompleted(List<ContainerStatus> statuses) {
      events.completed(statuses);
    }

    @Override
    public void onContainersUpdated(List<UpdatedContainer> containers) {
    }

    @Override
    public void onShutdownRequest() {
      events.resourceManagerLost("the ResourceManager asked the session to end");
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
      LOG.error("The ResourceManager cannot be reached", e);
      events.resourceManagerLost("the ResourceManager cannot be reached: " + e);
    }
  }

  private final class NodeManagerEvents extends NMClientAsync.AbstractCallbackHandler {
    @Override
    public void onContainerStarted(ContainerId containerId, Map<String, ByteBuffer> allServiceResponse) {
    }

    @Override
    public void onContainerStatusReceived(ContainerId containerId, ContainerStatus containerStatus) {
    }

    @Override
    public void onContainerStopped(ContainerId containerId) {
    }

    @Override
    public void onStartContainerError(ContainerId containerId, Throwable t) {
      events.launchFailed(containerId, t);
    }

    @Override
    public void onContainerResourceIncreased(ContainerId containerId, Resource resource) {
    }

    @Override
    public void onContainerResourceUpdated(ContainerId containerId, Resource resource) {
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
      LOG.debug("could not stop " + containerId, t);
    }
  }
}
