package io.vivace.shuffle.net;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;

/**
 * A relay on the loopback in front of one executor's shuffle server, standing for the network
 * between it and the reduces: each connection it accepts is one to the server, and is counted
 * ({@link #accepted()}). Raw, it passes bytes both ways untouched (TLS included); reading HTTP, it
 * passes one request and its answer at a time and, when {@code closeAfter} says so for the n-th
 * answer it passed (from 1), closes that connection right after the answer, as a server closes a
 * connection left idle.
 */
final class ShuffleRelay implements AutoCloseable {

  private final ServerSocket listening;
  private final int serverPort;
  private final IntPredicate closeAfter;
  private final AtomicInteger accepted = new AtomicInteger();
  private final AtomicInteger open = new AtomicInteger();
  private final AtomicInteger answers = new AtomicInteger();
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final Thread acceptor;

  private ShuffleRelay(int serverPort, IntPredicate closeAfter) throws IOException {
    this.listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.serverPort = serverPort;
    this.closeAfter = closeAfter;
    this.acceptor = new Thread(this::accept, "test-relay-" + listening.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** A relay passing bytes untouched to the server on {@code serverPort}. */
  static ShuffleRelay raw(int serverPort) throws IOException {
    return new ShuffleRelay(serverPort, null);
  }

  /** A relay of HTTP exchanges to the server on {@code serverPort}, closing the connection after the answers {@code closeAfter} names. */
  static ShuffleRelay http(int serverPort, IntPredicate closeAfter) throws IOException {
    return new ShuffleRelay(serverPort, closeAfter);
  }

  int port() {
    return listening.getLocalPort();
  }

  /** Connections accepted so far. */
  int accepted() {
    return accepted.get();
  }

  /** Connections accepted and not closed yet by the client (or the relay). */
  int open() {
    return open.get();
  }

  /** {@code locations} with their port replaced by the relay's. */
  List<MapOutputLocation> inFrontOf(List<MapOutputLocation> locations) {
    return locations.stream().map(l -> new MapOutputLocation(l.mapIndex(), l.host(), port(), l.attemptId())).toList();
  }

  private void accept() {
    while (!listening.isClosed()) {
      try {
        Socket client = listening.accept();
        accepted.incrementAndGet();
        open.incrementAndGet();
        Socket server = new Socket(InetAddress.getLoopbackAddress(), serverPort);
        sockets.add(client);
        sockets.add(server);
        if (closeAfter == null) {
          start(() -> {
            pump(client, server);
            open.decrementAndGet();
          });
          start(() -> pump(server, client));
        } else {
          start(() -> {
            exchanges(client, server);
            open.decrementAndGet();
          });
        }
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void start(Runnable body) {
    Thread t = new Thread(body, "test-relay-" + port() + "-connection");
    t.setDaemon(true);
    t.start();
  }

  private static void pump(Socket from, Socket to) {
    try {
      from.getInputStream().transferTo(to.getOutputStream());
    } catch (IOException ignored) {
      // either side closed
    } finally {
      closeBoth(from, to);
    }
  }

  private void exchanges(Socket client, Socket server) {
    try {
      InputStream fromClient = client.getInputStream();
      InputStream fromServer = server.getInputStream();
      OutputStream toServer = server.getOutputStream();
      OutputStream toClient = client.getOutputStream();
      while (true) {
        byte[] request = head(fromClient);
        if (request == null) {
          return;
        }
        toServer.write(request);
        toServer.flush();
        byte[] answer = head(fromServer);
        if (answer == null) {
          return;
        }
        toClient.write(answer);
        toClient.flush();
        long length = contentLength(new String(answer, StandardCharsets.ISO_8859_1));
        byte[] buffer = new byte[8192];
        for (long left = length; left > 0; ) {
          int n = fromServer.read(buffer, 0, (int) Math.min(buffer.length, left));
          if (n < 0) {
            return;
          }
          toClient.write(buffer, 0, n);
          toClient.flush();
          left -= n;
        }
        if (closeAfter.test(answers.incrementAndGet())) {
          return;
        }
      }
    } catch (IOException ignored) {
      // either side closed
    } finally {
      closeBoth(client, server);
    }
  }

  /** A message's head up to and with its blank line; null when the stream ended before it began. */
  private static byte[] head(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < end.length) {
      int b = in.read();
      if (b < 0) {
        if (head.size() == 0) {
          return null;
        }
        throw new IOException("the head ended early");
      }
      head.write(b);
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return head.toByteArray();
  }

  private static long contentLength(String head) {
    for (String line : head.split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
      }
    }
    return 0;
  }

  private static void closeBoth(Socket a, Socket b) {
    for (Socket s : new Socket[] {a, b}) {
      try {
        s.close();
      } catch (IOException ignored) {
        // closed anyway
      }
    }
  }

  @Override
  public void close() throws IOException {
    listening.close();
    for (Socket s : sockets) {
      s.close();
    }
  }
}
