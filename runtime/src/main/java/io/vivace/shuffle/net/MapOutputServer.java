package io.vivace.shuffle.net;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsServer;
import io.vivace.segment.Segment;
import io.vivace.shuffle.MapOutput;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An executor's shuffle server: answers a reducer's {@code GET} of one partition of one map
 * attempt's output with the segment's stored bytes, as the map stored them (docs/shuffle.md).
 * Every request must carry the HMAC of its parameters and stamp under its job's key ({@link
 * ShuffleAuth}) and be fresh ({@link ReplayGuard}); one that is not is refused (403), logged and
 * counted by reason ({@link #refused(ShuffleRefusal)}). The JDK's HTTP server, or its HTTPS server
 * when {@code mapreduce.shuffle.ssl.enabled} is true ({@link ServerTls}), on a fixed pool of daemon
 * threads, one per answer being sent. Every answer has a {@code Content-Length}, so that a reducer
 * keeps its connection for its next request (HTTP/1.1's default); a connection waiting for one holds
 * no thread, and the JDK's server closes it after 30 s idle, or at once after its answer when 200
 * connections already wait (its defaults, {@code sun.net.httpserver.idleInterval} and {@code
 * maxIdleConnections}, left as they are: they are settings of the whole JVM). Its connections
 * send without delay ({@code sun.net.httpserver.nodelay}, set to true unless set otherwise, before
 * the JVM's first JDK server reads it).
 */
public final class MapOutputServer implements Closeable {

  private static final Logger LOG = LoggerFactory.getLogger(MapOutputServer.class);
  /** Hadoop's key for the threads of a NodeManager's shuffle server (0: twice the cores). */
  static final String THREADS_KEY = "mapreduce.shuffle.max.threads";
  private static final AtomicInteger SERVERS = new AtomicInteger();
  /** The JDK server's switch for TCP_NODELAY on its connections, read once, by its first server in the JVM. */
  static final String NO_DELAY_PROPERTY = "sun.net.httpserver.nodelay";

  static {
    // The JDK's server writes an answer's head and body apart: on a kept-alive connection, with
    // Nagle's algorithm, a small body waits for the reducer's delayed ACK of the head (~40 ms each)
    if (System.getProperty(NO_DELAY_PROPERTY) == null) {
      System.setProperty(NO_DELAY_PROPERTY, "true");
    }
  }

  private final MapOutputSource source;
  private final Function<String, byte[]> jobKeys;
  private final HttpServer server;
  private final ServerTls tls;
  private final ExecutorService threads;
  private final ReplayGuard replays = new ReplayGuard();
  private final Map<ShuffleRefusal, AtomicLong> refused = new EnumMap<>(ShuffleRefusal.class);
  private final AtomicLong answered = new AtomicLong();
  private final AtomicLong answeredBytes = new AtomicLong();

  /**
   * Starts serving on {@code address} (port 0: any free port, see {@link #port()}) with {@code
   * threads} threads, in clear; {@code jobKeys} gives a job's shuffle key by its id, or null for a
   * job this executor has no key for (its requests are refused).
   */
  public MapOutputServer(InetSocketAddress address, int threads, MapOutputSource source,
                         Function<String, byte[]> jobKeys) throws IOException {
    this(address, threads, source, jobKeys, null);
  }

  /** As {@link #MapOutputServer(InetSocketAddress, int, MapOutputSource, Function)}, over TLS unless {@code tls} is null; closing the server closes it. */
  MapOutputServer(InetSocketAddress address, int threads, MapOutputSource source, Function<String, byte[]> jobKeys,
                  ServerTls tls) throws IOException {
    if (threads < 1) {
      throw new IllegalArgumentException("a shuffle server needs at least one thread, not " + threads);
    }
    this.source = source;
    this.jobKeys = jobKeys;
    this.tls = tls;
    for (ShuffleRefusal r : ShuffleRefusal.values()) {
      refused.put(r, new AtomicLong());
    }
    int number = SERVERS.incrementAndGet();
    AtomicInteger threadNumber = new AtomicInteger();
    this.threads = Executors.newFixedThreadPool(threads, body -> {
      Thread t = new Thread(body, "vivace-shuffle-server-" + number + "-" + threadNumber.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    try {
      if (tls == null) {
        this.server = HttpServer.create(address, 0);
      } else {
        HttpsServer https = HttpsServer.create(address, 0);
        https.setHttpsConfigurator(tls.configurator());
        this.server = https;
      }
    } catch (IOException e) {
      this.threads.shutdown();
      if (tls != null) {
        tls.close();
      }
      throw new IOException("cannot start the shuffle server on " + address + ": " + e.getMessage(), e);
    }
    server.createContext(ShuffleProtocol.PATH, this::answer);
    server.setExecutor(this.threads);
    server.start();
  }

  /**
   * A server with Hadoop's {@code mapreduce.shuffle.max.threads} threads ({@code 0}, its default:
   * twice the cores, as a NodeManager's shuffle server has), over TLS when {@code
   * mapreduce.shuffle.ssl.enabled} is true.
   */
  public static MapOutputServer start(Configuration conf, InetSocketAddress address, MapOutputSource source,
                                      Function<String, byte[]> jobKeys) throws IOException {
    int threads = conf.getInt(THREADS_KEY, 0);
    if (threads < 0) {
      throw new IllegalArgumentException(THREADS_KEY + "=" + threads + ": must be 0 (twice the cores) or more");
    }
    ServerTls tls = ShuffleTls.enabled(conf) ? ServerTls.start(conf) : null;
    return new MapOutputServer(address, threads == 0 ? 2 * Runtime.getRuntime().availableProcessors() : threads,
        source, jobKeys, tls);
  }

  /** The port the server listens on. */
  public int port() {
    return server.getAddress().getPort();
  }

  /** Whether the server speaks TLS. */
  public boolean encrypted() {
    return tls != null;
  }

  /** Requests refused (403) since the server started, for any reason. */
  public long refused() {
    return refused.values().stream().mapToLong(AtomicLong::get).sum();
  }

  /** Requests refused (403) for {@code reason} since the server started. */
  public long refused(ShuffleRefusal reason) {
    return refused.get(reason).get();
  }

  /**
   * Map output partitions answered (200, empty ones included), counted as their answer starts: one
   * cut short counts too.
   */
  public long answered() {
    return answered.get();
  }

  /** Stored bytes of the partitions answered. */
  public long answeredBytes() {
    return answeredBytes.get();
  }

  /** Stops at once: the port is closed, answers being sent are cut off. */
  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
    try {
      threads.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      if (tls != null) {
        tls.close();
      }
    }
  }

  private void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!"GET".equals(exchange.getRequestMethod())) {
        exchange.getResponseHeaders().set("Allow", "GET");
        fail(exchange, 405, "only GET");
        return;
      }
      MapOutputRequest request;
      try {
        request = MapOutputRequest.parse(exchange.getRequestURI().getRawQuery());
      } catch (IllegalArgumentException e) {
        fail(exchange, 400, e.getMessage());
        return;
      }
      byte[] key = jobKeys.apply(request.jobId());
      var requestHeaders = exchange.getRequestHeaders();
      String mac = requestHeaders.getFirst(ShuffleProtocol.HEADER_REQUEST_MAC);
      ShuffleRefusal refusal = check(request, key, mac, RequestStamp.parse(
          requestHeaders.getFirst(ShuffleProtocol.HEADER_SENT_AT), requestHeaders.getFirst(ShuffleProtocol.HEADER_NONCE)));
      if (refusal != null) {
        long n = refused.get(refusal).incrementAndGet();
        LOG.warn("Refused a shuffle request from {}: {} for {} ({} {} so far, {} refused in all)",
            exchange.getRemoteAddress(), refusal.reason(), request, n, refusal, refused());
        fail(exchange, 403, "refused: " + refusal.reason());
        return;
      }
      MapOutput output;
      try {
        output = source.find(request.jobId(), request.mapIndex(), request.attemptId());
      } catch (RuntimeException e) {
        LOG.warn("Looking up {} failed", request, e);
        fail(exchange, 500, "looking the output up failed: " + e);
        return;
      }
      if (output == null || request.partition() >= output.partitions()) {
        fail(exchange, 404, output == null ? "this executor holds no output of map " + request.mapIndex()
            + " attempt " + request.attemptId() + " of " + request.jobId()
            : "map " + request.mapIndex() + " has " + output.partitions() + " partitions: no partition "
            + request.partition());
        return;
      }
      send(exchange, request, mac, key, output.partition(request.partition()));
    }
  }

  /** Why the request must be refused, or null when it is authenticated and fresh. */
  private ShuffleRefusal check(MapOutputRequest request, byte[] key, String mac, RequestStamp stamp) {
    if (!ShuffleAuth.usable(key)) {
      return ShuffleRefusal.UNKNOWN_JOB;
    }
    if (mac == null || stamp == null) {
      return ShuffleRefusal.NO_MAC;
    }
    if (!ShuffleAuth.matches(ShuffleAuth.requestMac(key, request, stamp), mac)) {
      return ShuffleRefusal.WRONG_MAC;
    }
    return switch (replays.check(stamp, System.currentTimeMillis())) {
      case FRESH -> null;
      case STALE -> ShuffleRefusal.STALE;
      case REPLAYED -> ShuffleRefusal.REPLAYED;
    };
  }

  private void send(HttpExchange exchange, MapOutputRequest request, String mac, byte[] key, Segment segment)
      throws IOException {
    long length = segment == null ? 0 : segment.length();
    boolean compressed = segment != null && segment.codec().compresses();
    var headers = exchange.getResponseHeaders();
    headers.set(ShuffleProtocol.HEADER_JOB, request.jobId());
    headers.set(ShuffleProtocol.HEADER_MAP, Integer.toString(request.mapIndex()));
    headers.set(ShuffleProtocol.HEADER_ATTEMPT, request.attemptId());
    headers.set(ShuffleProtocol.HEADER_PARTITION, Integer.toString(request.partition()));
    headers.set(ShuffleProtocol.HEADER_LENGTH, Long.toString(length));
    headers.set(ShuffleProtocol.HEADER_COMPRESSED, Boolean.toString(compressed));
    headers.set(ShuffleProtocol.HEADER_ANSWER_MAC, ShuffleAuth.answerMac(key, mac, length, compressed));
    headers.set("Content-Type", "application/octet-stream");
    answered.incrementAndGet();
    answeredBytes.addAndGet(length);
    // -1: no body (0 would mean a chunked one)
    exchange.sendResponseHeaders(200, length == 0 ? -1 : length);
    if (segment != null) {
      try (OutputStream body = exchange.getResponseBody()) {
        segment.copyStoredBytesTo(body);
      } catch (IOException | RuntimeException e) {
        // the reducer sees a cut answer and tries again; a released segment is gone by then (404)
        LOG.warn("Serving {} to {} failed: {}", request, exchange.getRemoteAddress(), e.toString());
      }
    }
  }

  private static void fail(HttpExchange exchange, int status, String message) throws IOException {
    byte[] text = (message + "\n").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(status, text.length);
    try (OutputStream body = exchange.getResponseBody()) {
      body.write(text);
    }
  }
}
