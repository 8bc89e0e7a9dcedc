package io.vivace.cluster.session;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;

/**
 * YARN as the session's master sees it, played by the test: it records what the session asks
 * (containers requested, on which nodes, and taken back, launched, stopped, released) and gives
 * containers, ends them or loses the ResourceManager when the test says so. Taking back a request
 * never made (no outstanding one names the same nodes) fails, as it would leave YARN's counts wrong.
 */
final class FakeYarn implements YarnClients {

  private static final ApplicationAttemptId ATTEMPT = ApplicationAttemptId.newInstance(
      ApplicationId.newInstance(1_700_000_000_000L, 1), 1);

  Events events;
  /** Containers asked for and not yet given or taken back. */
  int outstanding;
  /** The nodes each of those was asked on (none: anywhere), in the order asked. */
  final List<List<String>> asks = new ArrayList<>();
  final List<Container> launched = new ArrayList<>();
  final List<ContainerId> stopped = new ArrayList<>();
  final List<ContainerId> released = new ArrayList<>();
  Resource headroom = Resource.newInstance(0, 0);
  String unregistered;
  private long nextContainer = 2;

  /** The largest container the ResourceManager says it gives. */
  Resource largest = Resource.newInstance(8192, 8);

  @Override
  public Resource start(Events events, String host, int rpcPort, String trackingUrl) {
    this.events = events;
    return largest;
  }

  @Override
  public synchronized void requestContainer(Resource size, List<String> nodes) {
    outstanding++;
    asks.add(List.copyOf(nodes));
  }

  @Override
  public synchronized void cancelRequest(Resource size, List<String> nodes) {
    if (!asks.remove(nodes)) {
      throw new IllegalStateException("no request on " + nodes + " to take back: " + asks);
    }
    outstanding--;
  }

  /** The nodes named by the requests outstanding (one list per request naming any). */
  synchronized List<List<String>> namedAsks() {
    return asks.stream().filter(nodes -> !nodes.isEmpty()).toList();
  }

  @Override
  public synchronized void launch(Container container, ContainerLaunchContext context) {
    launched.add(container);
  }

  @Override
  public synchronized void stopAndRelease(Container container) {
    stopped.add(container.getId());
    released.add(container.getId());
  }

  @Override
  public synchronized void release(ContainerId container) {
    released.add(container);
  }

  @Override
  public Resource headroom() {
    return headroom;
  }

  @Override
  public void finish(FinalApplicationStatus status, String message, boolean unregister) {
    unregistered = unregister ? message : null;
  }

  /** The ResourceManager gives {@code n} containers on {@code host} (whether or not they were asked for). */
  List<Container> give(int n, String host) {
    List<Container> given = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      given.add(Container.newInstance(ContainerId.newContainerId(ATTEMPT, nextContainer++),
          NodeId.newInstance(host, 45454), host + ":8042", Resource.newInstance(512, 1), Priority.newInstance(1),
          null));
    }
    events.allocated(given);
    return given;
  }

  /** The container's process ended (killed, with exit status 137). */
  void end(Container container) {
    events.completed(List.of(ContainerStatus.newInstance(container.getId(), ContainerState.COMPLETE,
        "Container killed on request. Exit code is 137", ContainerExitStatus.KILLED_BY_APPMASTER)));
  }
}
