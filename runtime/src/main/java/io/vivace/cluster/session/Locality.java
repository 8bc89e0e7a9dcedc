package io.vivace.cluster.session;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.yarn.util.RackResolver;

/**
 * Where a map's input is, seen from an executor's host: on it (data-local), in its rack
 * (rack-local, by Hadoop's topology: every host is in {@code /default-rack} unless the cluster
 * configures a topology) or elsewhere, as Hadoop's job counters count maps.
 */
final class Locality {

  private final Configuration conf;
  private final Map<String, String> addresses = new ConcurrentHashMap<>();

  Locality(Configuration conf) {
    this.conf = conf;
  }

  JobCounter of(String executorHost, String[] inputHosts) {
    String here = address(executorHost);
    for (String host : inputHosts) {
      if (address(host).equals(here)) {
        return JobCounter.DATA_LOCAL_MAPS;
      }
    }
    String rack = RackResolver.resolve(conf, executorHost).getNetworkLocation();
    for (String host : inputHosts) {
      if (RackResolver.resolve(conf, host).getNetworkLocation().equals(rack)) {
        return JobCounter.RACK_LOCAL_MAPS;
      }
    }
    return JobCounter.OTHER_LOCAL_MAPS;
  }

  /** Whether any of the executors runs on one of the hosts (else waiting for one is pointless). */
  boolean anyExecutorOn(String[] hosts, Collection<Dispatcher.Executor> executors) {
    for (Dispatcher.Executor executor : executors) {
      String here = address(executor.info.host());
      for (String host : hosts) {
        if (address(host).equals(here)) {
          return true;
        }
      }
    }
    return false;
  }

  /** A host's address, so that "localhost" and "127.0.0.1" are one host. */
  private String address(String host) {
    return addresses.computeIfAbsent(host, h -> {
      try {
        return InetAddress.getByName(h).getHostAddress();
      } catch (UnknownHostException e) {
        return h;
      }
    });
  }
}
