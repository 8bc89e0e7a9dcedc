package io.vivace.cluster.session;

import java.util.List;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.Resource;

/**
 * What the session's master asks of YARN for its executors, and what YARN tells it: the
 * ResourceManager's and NodeManagers' clients as {@link ExecutorContainers} uses them. The real
 * one is {@link AsyncYarnClients}; the seam lets the executor pool's sizing be driven without a
 * cluster.
 */
interface YarnClients {

  /** What YARN tells the session, on YARN's threads. */
  interface Events {

    /** Containers the ResourceManager gave the session. */
    void allocated(List<Container> containers);

    /** Containers of the session that ended (their process exited, was killed, or their node went). */
    void completed(List<ContainerStatus> statuses);

    /** A NodeManager could not start a container the session launched. */
    void launchFailed(ContainerId container, Throwable cause);

    /** The ResourceManager asked the session to end, or cannot be reached any more: the session ends. */
    void resourceManagerLost(String why);
  }

  /**
   * Registers the session's master with the ResourceManager; {@code events} hears from YARN from
   * then on. Returns the largest container YARN gives an application.
   */
  Resource start(Events events, String host, int rpcPort, String trackingUrl) throws Exception;

  /**
   * Asks the ResourceManager for one more container of {@code size}, on one of {@code nodes} when
   * it can (none: anywhere). Locality is relaxed: a node the scheduler cannot serve gives way, after
   * its locality delay, to the node's rack, then to any node, so the request is never stuck.
   */
  void requestContainer(Resource size, List<String> nodes);

  /**
   * Takes back one request for a container of {@code size} on {@code nodes} (given, or no longer
   * needed): the one made with the same nodes, so that the ResourceManager's count for each node,
   * rack and the cluster stays what the session still asks for.
   */
  void cancelRequest(Resource size, List<String> nodes);

  /** Starts {@code context} in {@code container} on its NodeManager. */
  void launch(Container container, ContainerLaunchContext context);

  /** Stops a container the session launched and gives it back to the ResourceManager. */
  void stopAndRelease(Container container);

  /** Gives back a container the session was given and did not launch. */
  void release(ContainerId container);

  /** What the ResourceManager says the session could still get (its last heartbeat's headroom), or null. */
  Resource headroom();

  /**
   * The session ends: unregisters from the ResourceManager with {@code status} unless it is lost,
   * stops the clients.
   */
  void finish(FinalApplicationStatus status, String message, boolean unregister);
}
