package io.vivace.cluster.rpc;

import io.vivace.cluster.security.SessionAccess;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import org.apache.hadoop.ipc.RemoteException;

/**
 * A call to a session failed because its application master could not be reached: it has ended
 * (stopped, killed, crashed, its node lost) or the network between them is down. Hadoop's RPC client
 * says only that a connection was refused or cut; this names the session and where to look.
 */
public final class SessionUnreachableException extends IOException {

  private static final long serialVersionUID = 1L;

  SessionUnreachableException(SessionAccess session, InetSocketAddress address, Throwable cause) {
    super("the master of " + session + " cannot be reached at " + address + ": it has ended or its host "
        + "is unreachable, and its jobs with it (their output is not committed); see yarn application -status "
        + session.sessionId() + " and yarn logs -applicationId " + session.sessionId() + " (" + cause + ")", cause);
  }

  /**
   * Whether {@code failure} (as Hadoop's RPC client throws it) says the server could not be reached:
   * a connection refused, cut or timed out, also when Hadoop wrapped it (a connection closed during
   * its SASL exchange, as by a master stopping its server, comes as an IOException around an
   * EOFException). An answer of the server ({@link RemoteException}) never is.
   */
  static boolean isUnreachable(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof RemoteException) {
        return false;
      }
      if (t instanceof ConnectException || t instanceof EOFException || t instanceof NoRouteToHostException
          || t instanceof SocketTimeoutException || t instanceof UnknownHostException || t instanceof SocketException) {
        return true;
      }
    }
    return false;
  }
}
