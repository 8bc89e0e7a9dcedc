package io.vivace.cluster.session;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which nodes the session's next executor containers are asked for on: the hosts of the waiting
 * maps' input that have no executor and no container asked for yet, one container each, first the
 * host holding the most waiting maps that neither those hosts nor the hosts chosen before hold (then
 * the host holding the most waiting maps), so that the executors spread over the hosts holding the
 * input, as MapReduce asks for each map's container on its split's hosts. Containers beyond those
 * hosts are asked for anywhere.
 */
final class ExecutorPlacement {

  private ExecutorPlacement() {
  }

  /**
   * At most {@code containers} hosts, each for one container: hosts of {@code mapInputs} (each
   * waiting map's input hosts) not in {@code taken} (hosts with an executor or a container asked
   * for), compared without case as host names are.
   */
  static List<String> hostsFor(int containers, List<String[]> mapInputs, Collection<String> taken) {
    Set<String> excluded = new HashSet<>();
    for (String host : taken) {
      excluded.add(host.toLowerCase(Locale.ROOT));
    }
    Map<String, String> names = new LinkedHashMap<>();
    for (String[] hosts : mapInputs) {
      for (String host : hosts) {
        String key = host.toLowerCase(Locale.ROOT);
        if (!excluded.contains(key)) {
          names.putIfAbsent(key, host);
        }
      }
    }
    List<String> chosen = new ArrayList<>();
    List<String[]> uncovered = new ArrayList<>(mapInputs);
    uncovered.removeIf(hosts -> excluded.stream().anyMatch(host -> holds(hosts, host)));
    while (chosen.size() < containers && chosen.size() < names.size()) {
      String best = null;
      int bestUncovered = -1;
      int bestAll = -1;
      for (String host : names.keySet()) {
        if (chosen.contains(host)) {
          continue;
        }
        int onUncovered = holding(host, uncovered);
        int onAll = holding(host, mapInputs);
        if (onUncovered > bestUncovered || onUncovered == bestUncovered && onAll > bestAll) {
          best = host;
          bestUncovered = onUncovered;
          bestAll = onAll;
        }
      }
      chosen.add(best);
      String picked = best;
      uncovered.removeIf(hosts -> holds(hosts, picked));
    }
    List<String> hosts = new ArrayList<>();
    for (String key : chosen) {
      hosts.add(names.get(key));
    }
    return hosts;
  }

  private static int holding(String host, List<String[]> mapInputs) {
    int n = 0;
    for (String[] hosts : mapInputs) {
      if (holds(hosts, host)) {
        n++;
      }
    }
    return n;
  }

  private static boolean holds(String[] hosts, String host) {
    for (String h : hosts) {
      if (h.equalsIgnoreCase(host)) {
        return true;
      }
    }
    return false;
  }
}
