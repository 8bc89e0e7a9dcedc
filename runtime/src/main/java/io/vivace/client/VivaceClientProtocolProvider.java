package io.vivace.client;

import io.vivace.cluster.client.SessionClient;
import io.vivace.cluster.rpc.SessionRpc;
import io.vivace.conf.VivaceConf;
import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.mapreduce.protocol.ClientProtocolProvider;

/**
 * Selected by Hadoop's {@code Cluster} through {@link java.util.ServiceLoader} when
 * {@code mapreduce.framework.name=vivace}; any program using {@code Job}, {@code JobClient} or
 * {@code ToolRunner} then runs unchanged on the embedded engine or, with {@code vivace.master=yarn},
 * on the user's Vivace session on YARN.
 */
public final class VivaceClientProtocolProvider extends ClientProtocolProvider {

  public static final String FRAMEWORK_NAME = "vivace";

  @Override
  public ClientProtocol create(Configuration conf) throws IOException {
    if (!FRAMEWORK_NAME.equals(conf.get(MRConfig.FRAMEWORK_NAME))) {
      return null;
    }
    ClientPolls.shorten(conf);
    if ("yarn".equals(VivaceConf.get(conf, "vivace.master"))) {
      return SessionClient.connect(conf);
    }
    return new VivaceClientProtocol(conf);
  }

  @Override
  public ClientProtocol create(InetSocketAddress addr, Configuration conf) throws IOException {
    return create(conf);
  }

  @Override
  public void close(ClientProtocol clientProtocol) {
    if (!(clientProtocol instanceof VivaceClientProtocol)) {
      SessionRpc.close(clientProtocol); // a session's: the session goes on without this client
    }
    // the embedded engine outlives its clients: its warm workers serve the JVM's next job
  }
}
