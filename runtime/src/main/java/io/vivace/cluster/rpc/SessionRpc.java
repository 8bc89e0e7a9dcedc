package io.vivace.cluster.rpc;

import io.vivace.cluster.security.SessionSecret;
import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.WritableRpcEngine;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The session's RPC: one Hadoop RPC server in the application master for both of its protocols
 * (Hadoop's own {@link ClientProtocol}, which job clients speak, and {@link ExecutorProtocol}), with
 * Writable messages, and the proxies clients and executors talk to it through. Callers present the
 * session's secret ({@link SessionSecret}).
 */
public final class SessionRpc {

  private SessionRpc() {
  }

  /** The server, bound to {@code host} on a free port, not yet started. */
  public static RPC.Server server(Configuration conf, String host, int handlers, SessionSecret secret,
                                  String owner, ClientProtocol clients, ExecutorProtocol executors)
      throws IOException {
    Configuration rpcConf = new Configuration(conf);
    useWritables(rpcConf);
    RPC.Server server = new RPC.Builder(rpcConf).setProtocol(ExecutorProtocol.class).setInstance(executors)
        .setBindAddress(host).setPort(0).setNumHandlers(handlers).setVerbose(false).build();
    server.addProtocol(RPC.RpcKind.RPC_WRITABLE, ClientProtocol.class, clients);
    return server;
  }

  /** A proxy of {@code protocol} on the session's server at {@code address}, as {@code user}. */
  public static <T> T proxy(Class<T> protocol, long version, InetSocketAddress address, Configuration conf,
                            SessionSecret secret, UserGroupInformation user) throws IOException {
    Configuration rpcConf = new Configuration(conf);
    useWritables(rpcConf);
    return RPC.getProxy(protocol, version, address, user, rpcConf,
        org.apache.hadoop.net.NetUtils.getDefaultSocketFactory(rpcConf));
  }

  public static void close(Object proxy) {
    RPC.stopProxy(proxy);
  }

  private static void useWritables(Configuration conf) {
    RPC.setProtocolEngine(conf, ExecutorProtocol.class, WritableRpcEngine.class);
    RPC.setProtocolEngine(conf, ClientProtocol.class, WritableRpcEngine.class);
  }
}
