package io.vivace.shuffle.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.localdisk.ScratchDir;
import io.vivace.segment.Segment;
import io.vivace.segment.SegmentCodec;
import io.vivace.shuffle.ShuffleMemory;
import io.vivace.shuffle.ShuffledPartition;
import io.vivace.task.TaskReporter;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.ssl.SSLFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shuffle over TLS ({@code mapreduce.shuffle.ssl.enabled}) with keystores, truststores and
 * {@code ssl-server.xml}/{@code ssl-client.xml} made as Hadoop's own tests make them
 * ({@link TlsFiles}, client certificates required): real servers and fetches on loopback
 * sockets, the bytes against those fetched in clear, and the refusals of what does not speak TLS,
 * of a certificate that does not name the host, and of a configuration without a keystore.
 */
@Timeout(300) // a hang guard only
class ShuffleTlsTest {

  private static final long LARGE = 256L << 20;
  /** One try: a refused fetch fails at once. */
  private static final FetchSettings ONE_TRY = new FetchSettings(3, 5_000, 20_000, 0, 10);

  @TempDir
  static Path keystores;
  private static String sslConfDir;
  /** Hadoop's TLS settings for the shuffle, as TlsFiles writes them (host names not checked). */
  private static Configuration tls;

  @TempDir
  Path mapDisks;
  @TempDir
  Path reduceDisk;

  private final TaskReporter reporter = new TaskReporter();
  private final List<AutoCloseable> opened = new ArrayList<>();

  @BeforeAll
  static void makeKeystores() throws Exception {
    // the ssl-*.xml files must be on the class path, where SSLFactory looks for them
    sslConfDir = TlsFiles.classPathDir(ShuffleTlsTest.class);
    tls = TlsFiles.make(keystores, sslConfDir, true);
    tls.setBoolean(ShuffleTls.ENABLED_KEY, true);
  }

  @AfterAll
  static void removeKeystores() throws Exception {
    TlsFiles.remove(sslConfDir);
  }

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable c : opened) {
      c.close();
    }
  }

  private ShuffleHosts hosts(Configuration serverTls) throws Exception {
    ShuffleHosts hosts = new ShuffleHosts(mapDisks.toFile(), serverTls, 4, 2, 2_000, SegmentCodec.NONE, LARGE, LARGE);
    opened.add(hosts);
    return hosts;
  }

  private ClientTls client(Configuration conf) throws IOException {
    ClientTls client = ClientTls.startIfEnabled(conf);
    opened.add(client);
    return client;
  }

  /** The stored bytes of each segment a reduce of {@code partition} fetches from {@code locations}. */
  private List<byte[]> fetch(ShuffleHosts hosts, List<MapOutputLocation> locations, int partition, ClientTls client)
      throws IOException {
    return fetch(hosts, locations, partition, client, ONE_TRY);
  }

  private List<byte[]> fetch(ShuffleHosts hosts, List<MapOutputLocation> locations, int partition, ClientTls client,
                             FetchSettings settings) throws IOException {
    File scratch = reduceDisk.resolve("reduce-" + opened.size()).toFile();
    try (FetchedShuffleInput input = new FetchedShuffleInput(ShuffleHosts.JOB, partition, locations, hosts.codec,
        new ShuffleMemory(LARGE), ScratchDir.of(scratch), ShuffleHosts.KEY, reporter, settings, client)) {
      ShuffledPartition fetched = input.take(partition);
      List<byte[]> bytes = new ArrayList<>();
      for (Segment s : fetched.segments()) {
        bytes.add(stored(s));
      }
      return bytes;
    }
  }

  private static byte[] stored(Segment segment) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    segment.copyStoredBytesTo(out);
    return out.toByteArray();
  }

  private static long answered(ShuffleHosts hosts) {
    return hosts.executors.stream().mapToLong(e -> e.server.answered()).sum();
  }

  @Test
  void aFetchOverTlsGetsTheBytesAFetchInClearGets() throws Exception {
    ShuffleHosts hosts = hosts(tls);
    assertTrue(hosts.executors.get(0).server.encrypted());
    // a server in clear beside each TLS one, serving the same outputs
    List<MapOutputLocation> clear = new ArrayList<>();
    for (MapOutputLocation l : hosts.locations) {
      ShuffleHosts.Executor e = hosts.executors.get(hosts.executorOf[l.mapIndex()]);
      MapOutputServer plain = new MapOutputServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 2,
          e.source, job -> ShuffleHosts.KEY);
      opened.add(plain);
      assertFalse(plain.encrypted());
      clear.add(new MapOutputLocation(l.mapIndex(), ShuffleHosts.HOST, plain.port(), l.attemptId()));
    }
    ClientTls client = client(tls);
    for (int partition = 0; partition < hosts.partitions; partition++) {
      List<byte[]> overTls = fetch(hosts, hosts.locations, partition, client);
      List<byte[]> inClear = fetch(hosts, clear, partition, null);
      List<Segment> held = hosts.heldSegments(partition);
      assertEquals(held.size(), overTls.size());
      assertEquals(held.size(), inClear.size());
      for (int i = 0; i < held.size(); i++) {
        assertArrayEquals(stored(held.get(i)), overTls.get(i), "partition " + partition + ", segment " + i);
        assertArrayEquals(inClear.get(i), overTls.get(i), "partition " + partition + ", segment " + i);
      }
    }
    assertEquals(hosts.maps * hosts.partitions, answered(hosts), "every map's partitions, over TLS");
    assertTrue(hosts.heldBytes(0) > 0);
  }

  @Test
  void manyOutputsComeOverTlsOnAFewKeptConnections() throws Exception {
    ShuffleHosts hosts = new ShuffleHosts(mapDisks.toFile(), tls, 24, 2, 300, SegmentCodec.NONE, LARGE);
    opened.add(hosts);
    ShuffleRelay relay = ShuffleRelay.raw(hosts.executors.get(0).server.port());
    opened.add(relay);
    List<byte[]> overTls = fetch(hosts, relay.inFrontOf(hosts.locations), 0, client(tls));
    List<Segment> held = hosts.heldSegments(0);
    assertEquals(held.size(), overTls.size());
    for (int i = 0; i < held.size(); i++) {
      assertArrayEquals(stored(held.get(i)), overTls.get(i), "segment " + i);
    }
    assertEquals(24, answered(hosts));
    assertTrue(relay.accepted() >= 1 && relay.accepted() <= ONE_TRY.parallelCopies(),
        relay.accepted() + " TLS connections (and handshakes) for 24 maps and " + ONE_TRY.parallelCopies() + " fetch threads");
  }

  @Test
  void aFetchInClearFromATlsServerGetsNothing() throws Exception {
    ShuffleHosts hosts = hosts(tls);
    IOException e = assertThrows(IOException.class, () -> fetch(hosts, hosts.locations, 0, null));
    assertTrue(e instanceof MapOutputLostException, e.toString());
    assertEquals(0, answered(hosts), "nothing served");
  }

  @Test
  void aFetchOverTlsFromAServerInClearGetsNothing() throws Exception {
    ShuffleHosts hosts = hosts(null);
    // the server in clear waits for a request line that never comes; the handshake waits for its answer
    FetchSettings shortRead = new FetchSettings(3, 5_000, 1_000, 0, 10);
    IOException e = assertThrows(IOException.class, () -> fetch(hosts, hosts.locations, 0, client(tls), shortRead));
    assertTrue(e.getMessage().contains("cannot connect"), e.getMessage());
    assertTrue(reporter.getCounter(ShuffleError.GROUP, ShuffleError.CONNECTION.name()).getValue() > 0,
        "a failed handshake is a failed connection");
    assertEquals(0, answered(hosts), "nothing served");
  }

  @Test
  void theServersCertificateMustNameTheHostFetchedFrom() throws Exception {
    ShuffleHosts hosts = hosts(tls);
    Configuration checking = new Configuration(tls);
    checking.set(SSLFactory.SSL_HOSTNAME_VERIFIER_KEY, "DEFAULT");
    ClientTls client = client(checking);
    // the server's certificate names localhost, not 127.0.0.1
    IOException e = assertThrows(IOException.class, () -> fetch(hosts, hosts.locations, 0, client));
    assertFalse(e instanceof MapOutputLostException, e.toString());
    assertTrue(e.getMessage().contains("does not name " + ShuffleHosts.HOST), e.getMessage());
    assertEquals(0, answered(hosts));
    assertEquals(hosts.heldSegments(0).size(), fetch(hosts, hosts.locationsAt("localhost"), 0, client).size());
  }

  @Test
  void tlsWithoutItsSettingsOrKeystoreFailsNamingTheFileAndTheKey() throws Exception {
    Configuration missingFile = new Configuration(tls);
    missingFile.set(SSLFactory.SSL_SERVER_CONF_KEY, "no-such-ssl-server.xml");
    IOException e = assertThrows(IOException.class, () -> MapOutputServer.start(missingFile,
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), (job, map, attempt) -> null, job -> null));
    assertTrue(e.getMessage().contains("no-such-ssl-server.xml (hadoop.ssl.server.conf)")
        && e.getMessage().contains("mapreduce.shuffle.ssl.enabled"), e.getMessage());

    Configuration noKeystore = new Configuration(false);
    noKeystore.set("ssl.server.truststore.location", keystores.resolve("truststore.jks").toString());
    File file = new File(sslConfDir, "ssl-server-without-keystore.xml");
    TlsFiles.save(file, noKeystore);
    try {
      Configuration conf = new Configuration(tls);
      conf.set(SSLFactory.SSL_SERVER_CONF_KEY, file.getName());
      IOException n = assertThrows(IOException.class, () -> MapOutputServer.start(conf,
          new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), (job, map, attempt) -> null, job -> null));
      assertTrue(n.getMessage().contains("ssl.server.keystore.location")
          && n.getMessage().contains(file.getName()), n.getMessage());
    } finally {
      assertTrue(file.delete());
    }

    Configuration clientMissing = new Configuration(tls);
    clientMissing.set(SSLFactory.SSL_CLIENT_CONF_KEY, "no-such-ssl-client.xml");
    IOException c = assertThrows(IOException.class, () -> ClientTls.startIfEnabled(clientMissing));
    assertTrue(c.getMessage().contains("no-such-ssl-client.xml (hadoop.ssl.client.conf)"), c.getMessage());
  }

  @Test
  void withoutHadoopsKeyTheShuffleIsInClear() throws Exception {
    Configuration off = new Configuration(tls);
    off.setBoolean(ShuffleTls.ENABLED_KEY, false);
    assertEquals(null, ClientTls.startIfEnabled(off));
    try (MapOutputServer server = MapOutputServer.start(off, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
        (job, map, attempt) -> null, job -> null)) {
      assertFalse(server.encrypted());
    }
    try (MapOutputServer server = MapOutputServer.start(tls, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
        (job, map, attempt) -> null, job -> null)) {
      assertTrue(server.encrypted());
    }
  }
}
