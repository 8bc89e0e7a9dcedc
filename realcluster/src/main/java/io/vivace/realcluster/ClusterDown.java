package io.vivace.realcluster;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code vivace cluster down}: stops every process of the cluster (daemons and containers, found
 * as {@link ClusterProcesses} finds them), then removes the namespaces, links, bridge and
 * {@code /etc/netns} entries its state names, whatever part of them a crashed {@code up} made. The
 * data, configuration and logs stay in the cluster's folder.
 */
final class ClusterDown {

  private final ClusterFiles files;

  ClusterDown(ClusterFiles files) {
    this.files = files;
  }

  void run() throws IOException {
    Optional<ClusterState> state = ClusterState.load(files.state());
    Set<Long> pids = ClusterProcesses.find(state, files);
    List<String> left = new ArrayList<>();
    if (!pids.isEmpty()) {
      ClusterUp.note("stopping " + pids.size() + " processes");
      ClusterProcesses.stop(pids).forEach(pid -> left.add("process " + pid + " ("
          + ClusterProcesses.commandLine(pid).strip() + ")"));
    }
    if (state.isPresent()) {
      if (state.get().namespaces()) {
        left.addAll(NamespaceNetwork.remove(state.get()));
      }
      for (Host host : state.get().hosts()) {
        for (Daemon daemon : host.daemons()) {
          Files.deleteIfExists(files.pidFile(host, daemon));
        }
      }
    }
    if (!left.isEmpty()) {
      throw new IOException("could not remove everything of the cluster in " + files.dir() + ":\n  "
          + String.join("\n  ", left));
    }
    Files.deleteIfExists(files.state());
    ClusterUp.note("down: nothing of the cluster in " + files.dir() + " runs (its data stays there)");
  }
}
