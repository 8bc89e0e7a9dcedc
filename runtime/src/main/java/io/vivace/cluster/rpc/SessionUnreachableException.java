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

  /** Whether {@code failure} (as Hadoop's RPC client throws it) says the server could not be reached. */
  static boolean isUnreachable(Throwable failure) {
    return failure instanceof ConnectException || failure instanceof EOFException
        || failure instanceof NoRouteToHostException || failure instanceof SocketTimeoutException
        || failure instanceof UnknownHostException || failure instanceof SocketException;
  }
}
