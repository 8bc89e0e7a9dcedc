package io.vivace.driver;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;

/**
 * Stops a YARN mini-cluster with its NodeManagers stopped all at once, then the rest of it. Each
 * NodeManager's stop can take 15 s or more (up to 6 s for the containers of applications still
 * running, then 10 s for its log handler, which waits for its scheduled deletions of finished
 * applications' logs); the cluster's own stop takes them one after another.
 */
public final class MiniYarnStop {

  private MiniYarnStop() {
  }

  /** Stops {@code yarn}. */
  public static void stop(MiniYARNCluster yarn) {
    List<Thread> stops = new ArrayList<>();
    List<NodeManager> nodes = nodeManagers(yarn);
    for (int i = 0; i < nodes.size(); i++) {
      Thread stop = new Thread(nodes.get(i)::stop, "stop-nodemanager-" + i);
      stop.start();
      stops.add(stop);
    }
    for (Thread stop : stops) {
      try {
        stop.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    yarn.stop(); // the ResourceManager and the rest; a NodeManager already stopped stays so
  }

  private static List<NodeManager> nodeManagers(MiniYARNCluster yarn) {
    List<NodeManager> nodes = new ArrayList<>();
    try {
      for (int i = 0; ; i++) {
        NodeManager node = yarn.getNodeManager(i);
        if (node != null) {
          nodes.add(node);
        }
      }
    } catch (ArrayIndexOutOfBoundsException e) {
      return nodes; // past the last: the cluster does not say how many it has
    }
  }
}
