package io.vivace.cluster.rpc;

import io.vivace.cluster.security.SessionAccess;
import io.vivace.cluster.security.SessionSecretManager;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.WritableRpcEngine;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The session's RPC: one Hadoop RPC server in the application master for its protocols (Hadoop's
 * own {@link ClientProtocol}, which job clients speak, {@link ExecutorProtocol}, and
 * {@link SessionControlProtocol}, the owner's), with Writable messages, and the proxies clients and
 * executors talk to it through.
 *
 * <p>Every caller proves that it knows the session's secret: the server accepts only SASL
 * DIGEST-MD5 with a {@code VIVACE_SESSION} token whose password is an HMAC under the secret and
 * whose user is the session's owner (docs/cluster.md, "Security").
 */
public final class SessionRpc {

  private SessionRpc() {
  }

  /**
   * The server, bound to {@code host} on a free port, not yet started; it accepts only callers
   * that hold {@code session}'s secret and act as its owner.
   */
  public static RPC.Server server(Configuration conf, String host, int handlers, SessionAccess session,
                                  ClientProtocol clients, ExecutorProtocol executors,
                                  SessionControlProtocol control) throws IOException {
    Configuration rpcConf = new Configuration(conf);
    useWritables(rpcConf);
    // Hadoop's server offers token authentication next to the configured method; with the method
    // itself "token" it offers nothing else, so a cluster's "simple" (trust the claimed user name)
    // never reaches the session.
    rpcConf.set(CommonConfigurationKeysPublic.HADOOP_SECURITY_AUTHENTICATION, "token");
    // Who may call is decided by the token; Hadoop's service ACLs (which know nothing of these
    // protocols) would refuse everyone where a cluster turns them on.
    rpcConf.setBoolean(CommonConfigurationKeysPublic.HADOOP_SECURITY_AUTHORIZATION, false);
    RPC.Server server = new RPC.Builder(rpcConf).setProtocol(ExecutorProtocol.class).setInstance(executors)
        .setBindAddress(host).setPort(0).setNumHandlers(handlers).setVerbose(false)
        .setSecretManager(new SessionSecretManager(session)).build();
    server.addProtocol(RPC.RpcKind.RPC_WRITABLE, ClientProtocol.class, clients);
    if (clients instanceof SessionClientProtocol) { // the session's own calls beside Hadoop's
      server.addProtocol(RPC.RpcKind.RPC_WRITABLE, SessionClientProtocol.class, clients);
    }
    server.addProtocol(RPC.RpcKind.RPC_WRITABLE, SessionControlProtocol.class, control);
    return server;
  }

  /**
   * A proxy of {@code protocol} ({@link ClientProtocol}, {@link SessionClientProtocol},
   * {@link ExecutorProtocol} or {@link SessionControlProtocol}) on the
   * session's server at {@code address}, calling as {@code user} with a token made from the secret
   * {@code session} holds (none if it holds none). The token goes into a copy of {@code user}, never
   * into {@code user} itself. When the session refuses the caller, calls throw a
   * {@link io.vivace.cluster.security.SessionAccessException} that says why.
   */
  public static <T> T proxy(Class<T> protocol, InetSocketAddress address, Configuration conf,
                            SessionAccess session, UserGroupInformation user) throws IOException {
    Class<?> wire = wireProtocol(protocol);
    Configuration rpcConf = new Configuration(conf);
    useWritables(rpcConf);
    // the short name, the session owner's kind: a Kerberos login's full name (user@REALM) is not
    String userName = user.getShortUserName();
    UserGroupInformation caller = UserGroupInformation.createRemoteUser(userName);
    if (session.hasSecret()) {
      caller.addToken(SessionSecretManager.token(session, userName, SecurityUtil.buildTokenService(address)));
    }
    Object rpc = RPC.getProxy(wire, RPC.getProtocolVersion(wire), address, caller, rpcConf,
        NetUtils.getDefaultSocketFactory(rpcConf));
    return protocol.cast(Proxy.newProxyInstance(protocol.getClassLoader(), new Class<?>[] {protocol},
        new RefusalTranslator(rpc, session, userName)));
  }

  public static void close(Object proxy) {
    RPC.stopProxy(proxy);
  }

  private static Class<?> wireProtocol(Class<?> protocol) {
    if (protocol == ClientProtocol.class || protocol == SessionClientProtocol.class) {
      return SessionClientProtocol.class;
    }
    if (protocol == ExecutorProtocol.class || protocol == SessionControlProtocol.class) {
      return protocol;
    }
    throw new IllegalArgumentException("a Vivace session serves " + ClientProtocol.class.getName() + ", "
        + ExecutorProtocol.class.getName() + " and " + SessionControlProtocol.class.getName() + ", not "
        + protocol.getName());
  }

  private static void useWritables(Configuration conf) {
    RPC.setProtocolEngine(conf, ExecutorProtocol.class, WritableRpcEngine.class);
    RPC.setProtocolEngine(conf, ClientProtocol.class, WritableRpcEngine.class);
    RPC.setProtocolEngine(conf, SessionClientProtocol.class, WritableRpcEngine.class);
    RPC.setProtocolEngine(conf, SessionControlProtocol.class, WritableRpcEngine.class);
  }
}
