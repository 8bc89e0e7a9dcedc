package io.vivace.shuffle.net;

import java.io.IOException;
import java.net.Socket;
import javax.net.ssl.HostnameVerifier;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.ssl.SSLFactory;

/**
 * TLS for a reduce's fetches: Hadoop's client-side {@link SSLFactory} (the cluster's {@code
 * ssl-client.xml}: the truststore the executors' certificates are checked against, and the
 * keystore of the client's own when servers require one), with its host name verifier
 * ({@code hadoop.ssl.hostname.verifier}), as Hadoop's Fetcher uses it. One per executor, shared by
 * all its fetches.
 */
public final class ClientTls implements AutoCloseable {

  private final SSLFactory factory;
  private final SSLSocketFactory sockets;
  private final HostnameVerifier hostnames;

  private ClientTls(SSLFactory factory, SSLSocketFactory sockets, HostnameVerifier hostnames) {
    this.factory = factory;
    this.sockets = sockets;
    this.hostnames = hostnames;
  }

  /**
   * The client side of {@code conf}'s TLS when {@code mapreduce.shuffle.ssl.enabled} is true, else
   * null (fetches in clear).
   */
  public static ClientTls startIfEnabled(Configuration conf) throws IOException {
    if (!ShuffleTls.enabled(conf)) {
      return null;
    }
    SSLFactory factory = ShuffleTls.start(conf, SSLFactory.Mode.CLIENT);
    try {
      return new ClientTls(factory, factory.createSSLSocketFactory(), factory.getHostnameVerifier());
    } catch (Exception e) {
      factory.destroy();
      throw new IOException(ShuffleTls.ENABLED_KEY + " is true but TLS for the shuffle's fetches cannot start: "
          + SegmentFetcher.describe(e), e);
    }
  }

  /**
   * TLS over {@code plain}, connected to {@code host:port}: the handshake done (within the
   * socket's read timeout) and the server's certificate checked to name {@code host}. Closing
   * {@code plain} closes it.
   */
  SSLSocket over(Socket plain, String host, int port) throws IOException {
    SSLSocket socket = (SSLSocket) sockets.createSocket(plain, host, port, true);
    socket.setUseClientMode(true);
    socket.startHandshake();
    if (!hostnames.verify(host, socket.getSession())) {
      socket.close();
      throw new SSLPeerUnverifiedException("the certificate of " + host + ":" + port + " does not name " + host
          + " (hadoop.ssl.hostname.verifier)");
    }
    return socket;
  }

  /** Stops the factory's reloading of the truststore. */
  @Override
  public void close() {
    factory.destroy();
  }
}
