package io.vivace.cluster;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;

/**
 * The host a container's servers bind and announce (the session AM's RPC and page, an executor's
 * map output server): the NodeManager's host as YARN gives it to the container ({@code NM_HOST}),
 * the address the cluster's own daemons on that node use, never the wildcard address, which would
 * also answer on every other network of the node. Outside a container, this host's name.
 */
public final class ContainerHost {

  private ContainerHost() {
  }

  public static String name() throws UnknownHostException {
    String host = System.getenv(Environment.NM_HOST.name());
    return host != null && !host.isBlank() ? host : InetAddress.getLocalHost().getCanonicalHostName();
  }
}
