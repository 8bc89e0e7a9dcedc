package io.vivace.shuffle.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.segment.Segment;
import io.vivace.segment.SegmentCodec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The executor's shuffle server seen from a plain HTTP client (the JDK's {@link HttpURLConnection},
 * not Vivace's fetcher), on a real socket: the wire format of docs/shuffle.md, and its refusals.
 */
@Timeout(300) // a hang guard only
class MapOutputServerTest {

  @TempDir
  Path mapDisks;

  private ShuffleHosts hosts;
  private MapOutputServer server;

  @BeforeEach
  void start() throws Exception {
    // one executor holding maps 0 and 1 (with budget 0: served from its local disk), 3 partitions
    hosts = new ShuffleHosts(mapDisks.toFile(), 2, 3, 1_000, SegmentCodec.NONE, 0);
    server = hosts.executors.get(0).server;
  }

  @AfterEach
  void stop() {
    hosts.close();
  }

  private record Answer(int status, Map<String, java.util.List<String>> headers, byte[] body) {
    String header(String name) {
      for (var e : headers.entrySet()) {
        if (name.equalsIgnoreCase(e.getKey())) {
          return e.getValue().get(0);
        }
      }
      return null;
    }
  }

  /** A GET of {@code query} with {@code mac} and {@code stamp} in its headers (a null one left out). */
  private Answer get(String query, String mac, RequestStamp stamp) throws IOException {
    URL url = new URL("http://" + ShuffleHosts.HOST + ":" + server.port() + ShuffleProtocol.PATH + "?" + query);
    HttpURLConnection c = (HttpURLConnection) url.openConnection(Proxy.NO_PROXY);
    if (mac != null) {
      c.setRequestProperty(ShuffleProtocol.HEADER_REQUEST_MAC, mac);
    }
    if (stamp != null) {
      c.setRequestProperty(ShuffleProtocol.HEADER_SENT_AT, Long.toString(stamp.sentAtMs()));
      c.setRequestProperty(ShuffleProtocol.HEADER_NONCE, stamp.nonce());
    }
    int status = c.getResponseCode();
    InputStream in = status == 200 ? c.getInputStream() : c.getErrorStream();
    byte[] body = in == null ? new byte[0] : in.readAllBytes();
    Map<String, java.util.List<String>> headers = c.getHeaderFields();
    c.disconnect();
    return new Answer(status, headers, body);
  }

  /** A GET of {@code request}, stamped now, with its MAC under {@code key}. */
  private Answer get(MapOutputRequest request, byte[] key) throws IOException {
    RequestStamp stamp = RequestStamp.now();
    return get(query(request), ShuffleAuth.requestMac(key, request, stamp), stamp);
  }

  private static String query(MapOutputRequest request) {
    return request.target().substring(ShuffleProtocol.PATH.length() + 1);
  }

  private static String text(Answer answer) {
    return new String(answer.body(), StandardCharsets.UTF_8);
  }

  private MapOutputRequest request(int map, int partition) {
    return new MapOutputRequest(ShuffleHosts.JOB, map, hosts.executors.get(0).attempts.get(map), partition);
  }

  private static byte[] stored(Segment segment) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    segment.copyStoredBytesTo(out);
    return out.toByteArray();
  }

  @Test
  void anAuthenticatedRequestGetsTheStoredBytesWithTheirLengthAndAnAuthenticatedAnswer() throws Exception {
    MapOutputRequest request = request(1, 0);
    RequestStamp stamp = RequestStamp.now();
    String requestMac = ShuffleAuth.requestMac(ShuffleHosts.KEY, request, stamp);
    Answer answer = get(query(request), requestMac, stamp);
    Segment segment = hosts.executors.get(0).registry.mapOutput(1).partition(0);

    assertEquals(200, answer.status());
    assertArrayEquals(stored(segment), answer.body(), "the segment's stored bytes, as the map wrote them");
    assertEquals(Long.toString(segment.length()), answer.header(ShuffleProtocol.HEADER_LENGTH));
    assertEquals(Long.toString(segment.length()), answer.header("Content-Length"));
    assertEquals("false", answer.header(ShuffleProtocol.HEADER_COMPRESSED));
    assertEquals("1", answer.header(ShuffleProtocol.HEADER_MAP));
    assertEquals("0", answer.header(ShuffleProtocol.HEADER_PARTITION));
    assertEquals(request.attemptId(), answer.header(ShuffleProtocol.HEADER_ATTEMPT));
    assertEquals(ShuffleHosts.JOB, answer.header(ShuffleProtocol.HEADER_JOB));
    assertEquals(ShuffleAuth.answerMac(ShuffleHosts.KEY, requestMac, segment.length(), false),
        answer.header(ShuffleProtocol.HEADER_ANSWER_MAC));
    assertEquals(1, server.answered());
    assertEquals(segment.length(), server.answeredBytes());
    assertEquals(0, server.refused());
  }

  @Test
  void anEmptyPartitionIsAnAnswerOfNoBytes() throws Exception {
    Answer answer = get(request(0, 2), ShuffleHosts.KEY); // ShuffleHosts leaves the last partition empty
    assertEquals(200, answer.status());
    assertEquals("0", answer.header(ShuffleProtocol.HEADER_LENGTH));
    assertEquals(0, answer.body().length);
  }

  /** Asserts {@code answer} is a refusal for {@code reason}, which the server counted. */
  private void assertRefused(ShuffleRefusal reason, long timesSoFar, Answer answer, String what) {
    assertEquals(403, answer.status(), what);
    assertEquals("refused: " + reason.reason(), text(answer).strip(), what);
    assertEquals(timesSoFar, server.refused(reason), what);
  }

  @Test
  void requestsWithoutAValidMacAreRefusedAndCountedByReason() throws Exception {
    MapOutputRequest request = request(0, 0);
    RequestStamp stamp = RequestStamp.now();
    String mac = ShuffleAuth.requestMac(ShuffleHosts.KEY, request, stamp);
    assertRefused(ShuffleRefusal.NO_MAC, 1, get(query(request), null, stamp), "no MAC");
    assertRefused(ShuffleRefusal.NO_MAC, 2, get(query(request), mac, null), "a MAC without its time and nonce");
    assertRefused(ShuffleRefusal.WRONG_MAC, 1, get(query(request), "not-a-mac", stamp), "a made-up MAC");
    byte[] other = "another job's key".getBytes(StandardCharsets.US_ASCII);
    assertRefused(ShuffleRefusal.WRONG_MAC, 2, get(request, other), "a MAC under another key");
    MapOutputRequest otherJob = new MapOutputRequest("job_1700000000000_0008", 0, request.attemptId(), 0);
    assertRefused(ShuffleRefusal.UNKNOWN_JOB, 1, get(otherJob, ShuffleHosts.KEY), "a job the executor has no key for");
    assertEquals(5, server.refused());
    assertEquals(0, server.answered());
    assertEquals(200, get(query(request), mac, stamp).status(), "the same request with its MAC, time and nonce");
  }

  @Test
  void aRequestAlteredAfterItsMacWasMadeIsRefused() throws Exception {
    MapOutputRequest request = request(0, 0);
    RequestStamp stamp = RequestStamp.now();
    String mac = ShuffleAuth.requestMac(ShuffleHosts.KEY, request, stamp);
    MapOutputRequest otherPartition = request(0, 1);
    MapOutputRequest otherMap = request(1, 0);
    MapOutputRequest otherAttempt = new MapOutputRequest(ShuffleHosts.JOB, 0, request.attemptId().replaceAll("_0$", "_1"), 0);
    assertRefused(ShuffleRefusal.WRONG_MAC, 1, get(query(otherPartition), mac, stamp), "another partition");
    assertRefused(ShuffleRefusal.WRONG_MAC, 2, get(query(otherMap), mac, stamp), "another map");
    assertRefused(ShuffleRefusal.WRONG_MAC, 3, get(query(otherAttempt), mac, stamp), "another attempt");
    assertRefused(ShuffleRefusal.WRONG_MAC, 4,
        get(query(request), mac, new RequestStamp(stamp.sentAtMs() + 1, stamp.nonce())), "another time");
    assertRefused(ShuffleRefusal.WRONG_MAC, 5,
        get(query(request), mac, new RequestStamp(stamp.sentAtMs(), stamp.nonce() + "x")), "another nonce");
    assertEquals(0, server.answered());
    assertEquals(200, get(query(request), mac, stamp).status(), "the request as it was made");
  }

  @Test
  void aReplayedRequestIsRefusedEvenWithItsValidMac() throws Exception {
    MapOutputRequest request = request(1, 0);
    RequestStamp stamp = RequestStamp.now();
    String mac = ShuffleAuth.requestMac(ShuffleHosts.KEY, request, stamp);
    Answer first = get(query(request), mac, stamp);
    assertEquals(200, first.status());
    assertTrue(first.body().length > 0);
    assertRefused(ShuffleRefusal.REPLAYED, 1, get(query(request), mac, stamp), "the same request again");
    assertRefused(ShuffleRefusal.REPLAYED, 2, get(query(request), mac, stamp), "and again");
    assertEquals(1, server.answered());
    assertEquals(200, get(request, ShuffleHosts.KEY).status(), "a new request for the same partition: a new nonce");
  }

  @Test
  void aRequestStampedOutsideTheWindowIsRefusedEvenWithItsValidMac() throws Exception {
    MapOutputRequest request = request(0, 1);
    long now = System.currentTimeMillis();
    RequestStamp old = new RequestStamp(now - 2 * ReplayGuard.WINDOW_MS, RequestStamp.now().nonce());
    RequestStamp ahead = new RequestStamp(now + 2 * ReplayGuard.WINDOW_MS, RequestStamp.now().nonce());
    assertRefused(ShuffleRefusal.STALE, 1, get(query(request), ShuffleAuth.requestMac(ShuffleHosts.KEY, request, old),
        old), "sent two windows ago");
    assertRefused(ShuffleRefusal.STALE, 2, get(query(request),
        ShuffleAuth.requestMac(ShuffleHosts.KEY, request, ahead), ahead), "sent two windows ahead");
    assertEquals(0, server.answered());
  }

  @Test
  void whatTheExecutorDoesNotHoldIsNotFoundAndABadRequestIsSaidSo() throws Exception {
    MapOutputRequest rerun = new MapOutputRequest(ShuffleHosts.JOB, 0, request(0, 0).attemptId().replaceAll("_0$", "_1"), 0);
    assertEquals(404, get(rerun, ShuffleHosts.KEY).status(), "another attempt of the map");
    MapOutputRequest neverRan = new MapOutputRequest(ShuffleHosts.JOB, 5, "attempt_1700000000000_0007_m_000005_0", 0);
    assertEquals(404, get(neverRan, ShuffleHosts.KEY).status(), "a map it never ran");
    Answer beyond = get(request(0, 3), ShuffleHosts.KEY);
    assertEquals(404, beyond.status(), "a partition the map does not have");
    assertTrue(new String(beyond.body(), StandardCharsets.UTF_8).contains("3 partitions"));
    Answer bad = get("job=" + ShuffleHosts.JOB + "&map=x&attempt=a&reduce=0", "mac", RequestStamp.now());
    assertEquals(400, bad.status());
    assertTrue(new String(bad.body(), StandardCharsets.UTF_8).contains("map=x"));
    assertEquals(0, server.refused(), "malformed requests are not counted as refused");
  }

  @Test
  void aSourceThatFailsIsAServerError() throws Exception {
    hosts.executors.get(0).source = (job, map, attempt) -> {
      throw new IllegalStateException("the executor's job table is broken");
    };
    Answer answer = get(request(0, 0), ShuffleHosts.KEY);
    assertEquals(500, answer.status());
    assertTrue(new String(answer.body(), StandardCharsets.UTF_8).contains("job table is broken"));
  }

  @Test
  void theThreadsComeFromHadoopsKeyAndABadValueIsNamed() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setInt("mapreduce.shuffle.max.threads", -1);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MapOutputServer.start(conf,
        new java.net.InetSocketAddress(0), (job, map, attempt) -> null, job -> null));
    assertTrue(e.getMessage().contains("mapreduce.shuffle.max.threads=-1"), e.getMessage());
    conf.setInt("mapreduce.shuffle.max.threads", 0);
    try (MapOutputServer started = MapOutputServer.start(conf, new java.net.InetSocketAddress(0),
        (job, map, attempt) -> null, job -> null)) {
      assertTrue(started.port() > 0);
    }
  }
}
