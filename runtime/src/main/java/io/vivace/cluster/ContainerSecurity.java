package io.vivace.cluster;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The cluster's security settings in one of the session's containers. Hadoop reads them once per
 * JVM, from the configuration files on its class path unless told otherwise; a session's containers
 * have theirs in the session's own file. On a Kerberos cluster this makes the container's HDFS
 * client speak as the cluster expects (SASL with its delegation tokens, on the NameNode's RPC and
 * on the DataNodes' data transfer), as MapReduce's application master and tasks do with their
 * job's configuration.
 */
public final class ContainerSecurity {

  private ContainerSecurity() {
  }

  /** Makes {@code conf}'s security settings this JVM's; before anything logs in. */
  public static void use(Configuration conf) {
    UserGroupInformation.setConfiguration(conf);
  }
}
