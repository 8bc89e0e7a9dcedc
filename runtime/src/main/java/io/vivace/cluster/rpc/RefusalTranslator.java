package io.vivace.cluster.rpc;

import io.vivace.cluster.security.SessionAccess;
import io.vivace.cluster.security.SessionAccessException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Set;
import javax.security.sasl.SaslException;
import org.apache.hadoop.ipc.Client;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.RpcInvocationHandler;
import org.apache.hadoop.ipc.protobuf.RpcHeaderProtos.RpcResponseHeaderProto.RpcErrorCodeProto;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.token.SecretManager.InvalidToken;

/**
 * Wraps a session proxy so that the session refusing the caller's authentication (a SASL failure
 * while connecting, in Hadoop's words) surfaces as a {@link SessionAccessException} that names the
 * session, its owner, the caller and where the secret should have come from; and a session whose
 * master cannot be reached (a connection refused or cut) as a {@link SessionUnreachableException}.
 */
final class RefusalTranslator implements RpcInvocationHandler {

  private static final Set<String> AUTHENTICATION_FAILURES = Set.of(SaslException.class.getName(),
      InvalidToken.class.getName(), AccessControlException.class.getName());

  private final Object rpc;
  private final SessionAccess session;
  private final String user;

  RefusalTranslator(Object rpc, SessionAccess session, String user) {
    this.rpc = rpc;
    this.session = session;
    this.user = user;
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    if (ProxyObjectMethods.isObjectMethod(method)) {
      return ProxyObjectMethods.answer(proxy, method, args, "session proxy of " + session + " as " + user);
    }
    try {
      return method.invoke(rpc, args);
    } catch (InvocationTargetException e) {
      Throwable failure = e.getCause();
      String refusal = refusal(failure);
      if (refusal != null) {
        throw SessionAccessException.noValidSecret(session, user, refusal, failure);
      }
      if (SessionUnreachableException.isUnreachable(failure)) {
        throw new SessionUnreachableException(session, RPC.getServerAddress(rpc), failure);
      }
      throw failure;
    }
  }

  /**
   * What the session (or Hadoop's RPC client, on its answer) said when it refused the caller's
   * authentication; null when {@code failure} is not such a refusal. A refusal while connecting comes
   * back as a RemoteException without an RPC error code (the SASL exchange has none) or with
   * FATAL_UNAUTHORIZED, naming one of the authentication exceptions; an exception the session's code
   * throws in a call carries ERROR_APPLICATION and passes through unchanged.
   */
  static String refusal(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof RemoteException remote) {
        RpcErrorCodeProto code = remote.getErrorCode();
        boolean whileConnecting = code == null || code == RpcErrorCodeProto.FATAL_UNAUTHORIZED;
        return whileConnecting && AUTHENTICATION_FAILURES.contains(remote.getClassName())
            ? remote.getMessage() : null;
      }
      if (t instanceof SaslException || t instanceof AccessControlException) {
        return t.getMessage();
      }
    }
    return null;
  }

  @Override
  public Client.ConnectionId getConnectionId() {
    return RPC.getConnectionIdForProxy(rpc);
  }

  @Override
  public void close() {
    RPC.stopProxy(rpc);
  }
}
