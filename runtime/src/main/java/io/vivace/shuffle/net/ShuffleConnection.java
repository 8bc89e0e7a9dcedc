package io.vivace.shuffle.net;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A connection to an executor's {@link MapOutputServer} that carries HTTP/1.1 {@code GET}s one after
 * the other (kept alive: the next request goes once the answer's {@code Content-Length} bytes of
 * body were read, see {@link #reusable()}). A plain socket rather than the JDK's HTTP clients, because a fetch
 * must stop at once when its reduce is killed: {@link #close()} from another thread ends a connect
 * or a read under way (Java 17's {@code HttpClient} ignores interrupts while it waits for a body's
 * next bytes, and {@code HttpURLConnection.disconnect} waits for a read under way). Stalled reads end
 * by the socket's timeout. Only what the shuffle server sends is understood: a status line, headers
 * and a body of {@code Content-Length} bytes. Over TLS ({@link ClientTls}) the TLS socket is layered
 * on the plain one, which closing still ends at once.
 */
final class ShuffleConnection implements Closeable {

  /** Longest status line or header line read; the server's are far shorter. */
  private static final int MAX_LINE = 8 * 1024;
  private static final int MAX_HEADERS = 64;

  private final Socket socket = new Socket(Proxy.NO_PROXY);
  /** The socket the exchange goes over: {@link #socket}, or TLS over it. */
  private Socket exchange = socket;
  private String host;
  private int port;
  private InputStream in;
  private int status;
  private boolean keptAlive;
  /** Requests sent over the connection, the one under way included. */
  private int requests;
  private final Map<String, String> headers = new HashMap<>();

  /** Whether the connection goes to {@code host:port}. */
  boolean to(String host, int port) {
    return port == this.port && host.equals(this.host);
  }

  /** The executor's {@code host:port}. */
  String address() {
    return host + ":" + port;
  }

  /** Whether a request was sent over the connection before the last one. */
  boolean reused() {
    return requests > 1;
  }

  /**
   * Whether the last answer leaves the connection open for another request: an HTTP/1.1 answer
   * that did not say {@code Connection: close}. Its body must have been read to its end first.
   */
  boolean reusable() {
    return keptAlive && !socket.isClosed();
  }

  /** An answer's status line and headers; its body follows in {@link #body()}. */
  int status() {
    return status;
  }

  /** The first value of header {@code name} (any case), or null. */
  String header(String name) {
    return headers.get(name.toLowerCase(Locale.ROOT));
  }

  InputStream body() {
    return in;
  }

  /**
   * Connects to {@code host:port} within {@code connectTimeoutMs}; reads then wait at most {@code
   * readTimeoutMs} for their next bytes.
   *
   * @throws IOException no connection (refused, unreachable, unknown host, timed out, closed meanwhile)
   */
  void connect(String host, int port, long connectTimeoutMs, long readTimeoutMs) throws IOException {
    connect(host, port, connectTimeoutMs, readTimeoutMs, null);
  }

  /**
   * As {@link #connect(String, int, long, long)}, then, unless {@code tls} is null, TLS's handshake
   * (within the read timeout) and the check of the server's certificate.
   *
   * @throws javax.net.ssl.SSLException the handshake failed, or the certificate does not name {@code host}
   */
  void connect(String host, int port, long connectTimeoutMs, long readTimeoutMs, ClientTls tls) throws IOException {
    InetSocketAddress address = new InetSocketAddress(host, port);
    if (address.isUnresolved()) {
      throw new java.net.UnknownHostException(host);
    }
    this.host = host;
    this.port = port;
    socket.connect(address, (int) Math.min(connectTimeoutMs, Integer.MAX_VALUE));
    socket.setSoTimeout((int) Math.min(readTimeoutMs, Integer.MAX_VALUE));
    socket.setTcpNoDelay(true);
    if (tls != null) {
      exchange = tls.over(socket, host, port);
    }
    in = new BufferedInputStream(exchange.getInputStream(), 64 * 1024);
  }

  /**
   * Sends the request for {@code target} (path and query) and reads the answer's status and headers.
   *
   * @throws NoAnswerException a connection used before ended before the answer's first byte (the
   *     server closed it while idle): the request is worth sending again on a fresh one
   */
  void get(String target, Map<String, String> requestHeaders) throws IOException {
    StringBuilder request = new StringBuilder(256).append("GET ").append(target).append(" HTTP/1.1\r\n")
        .append("Host: ").append(host.indexOf(':') >= 0 ? "[" + host + "]" : host).append(':').append(port)
        .append("\r\n");
    requestHeaders.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
    request.append("\r\n");
    requests++;
    keptAlive = false;
    headers.clear();
    try {
      OutputStream out = exchange.getOutputStream();
      out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      if (firstByte() < 0) {
        throw new EOFException("the connection closed before the answer's head ended");
      }
    } catch (SocketTimeoutException e) {
      throw e;
    } catch (IOException e) {
      throw reused() ? new NoAnswerException(e) : e;
    }
    String statusLine = line();
    String[] parts = statusLine.split(" ", 3);
    if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
      throw new IOException("not an HTTP answer: \"" + statusLine + "\"");
    }
    try {
      status = Integer.parseInt(parts[1]);
    } catch (NumberFormatException e) {
      throw new IOException("not an HTTP status line: \"" + statusLine + "\"");
    }
    for (int n = 0; ; n++) {
      String header = line();
      if (header.isEmpty()) {
        break;
      }
      int colon = header.indexOf(':');
      if (colon <= 0 || n == MAX_HEADERS) {
        throw new IOException(colon <= 0 ? "not an HTTP header: \"" + header + "\"" : "more than " + MAX_HEADERS + " headers");
      }
      headers.putIfAbsent(header.substring(0, colon).trim().toLowerCase(Locale.ROOT), header.substring(colon + 1).trim());
    }
    keptAlive = parts[0].equals("HTTP/1.1") && !"close".equalsIgnoreCase(header("Connection"));
  }

  /** Waits for the answer's first byte and leaves it to be read; -1 when the connection ended first. */
  private int firstByte() throws IOException {
    in.mark(1);
    int b = in.read();
    in.reset();
    return b;
  }

  /** A request on a connection used before that ended before any byte of its answer arrived. */
  static final class NoAnswerException extends IOException {
    NoAnswerException(IOException cause) {
      super("the kept-alive connection ended before the answer: " + cause, cause);
    }
  }

  /** One line of the answer's head, without its CRLF (or LF). */
  private String line() throws IOException {
    StringBuilder line = new StringBuilder();
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("the connection closed before the answer's head ended");
      }
      if (b == '\n') {
        int end = line.length();
        return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
      }
      if (line.length() == MAX_LINE) {
        throw new IOException("an answer line longer than " + MAX_LINE + " bytes");
      }
      line.append((char) b);
    }
  }

  /** Closes the connection; from another thread, ends a connect or read under way (it throws). */
  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closed anyway
    }
  }
}
