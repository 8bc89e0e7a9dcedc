package io.vivace.client;

import io.vivace.cluster.client.SessionClient;
import io.vivace.cluster.rpc.SessionRpc;
import io.vivace.conf.ValueSources;
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

  /**
   * The client polls an in-process engine: Hadoop's 1 s / 5 s defaults would be pure latency. The
   * progress monitor logs a line per change, so it polls less often than the silent wait does.
   */
  private static final String PROGRESS_POLL = "mapreduce.client.progressmonitor.pollinterval";
  private static final String COMPLETION_POLL = "mapreduce.client.completion.pollinterval";
  private static final int PROGRESS_POLL_MILLIS = 100;
  private static final int COMPLETION_POLL_MILLIS = 5;

  @Override
  public ClientProtocol create(Configuration conf) throws IOException {
    if (!FRAMEWORK_NAME.equals(conf.get(MRConfig.FRAMEWORK_NAME))) {
      return null;
    }
    shortenPolling(conf, PROGRESS_POLL, PROGRESS_POLL_MILLIS);
    shortenPolling(conf, COMPLETION_POLL, COMPLETION_POLL_MILLIS);
    if ("yarn".equals(VivaceConf.get(conf, "vivace.master"))) {
      return SessionClient.connect(conf);
    }
    return new VivaceClientProtocol(conf);
  }

  /** Sets {@code key} to {@code millis} where it holds Hadoop's default (whatever file carried it on). */
  static void shortenPolling(Configuration conf, String key, int millis) {
    if (ValueSources.isHadoopDefault(conf, key)) {
      conf.setInt(key, millis);
    }
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
