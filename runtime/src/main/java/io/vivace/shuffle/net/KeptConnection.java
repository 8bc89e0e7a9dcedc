package io.vivace.shuffle.net;

import java.io.Closeable;

/**
 * One fetch thread's connection kept open between its fetches, so that its next request to the
 * same executor goes over it rather than over a new connection (and, over TLS, a new handshake).
 * Used by its fetch thread only; {@link #close()} when the thread's fetching ends.
 */
final class KeptConnection implements Closeable {

  private ShuffleConnection connection;

  /** The kept connection if it goes to {@code host:port}, handed over (null if none); one to another executor is closed. */
  ShuffleConnection take(String host, int port) {
    ShuffleConnection kept = connection;
    connection = null;
    if (kept != null && !kept.to(host, port)) {
      kept.close();
      return null;
    }
    return kept;
  }

  /** Keeps {@code c}, its last answer read to the end, if the server leaves it open; else closes it. */
  void keep(ShuffleConnection c) {
    close();
    if (c.reusable()) {
      connection = c;
    } else {
      c.close();
    }
  }

  /** The {@code host:port} of the kept connection's executor, or null. */
  String address() {
    return connection == null ? null : connection.address();
  }

  @Override
  public void close() {
    if (connection != null) {
      connection.close();
      connection = null;
    }
  }
}
