package io.vivace.driver.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.client.SessionClient;
import io.vivace.cluster.security.SessionSecret;
import io.vivace.cluster.security.SessionSecretStore;
import io.vivace.workloads.bench.LatencyBench;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The session's doors other than its RPC (which {@code SessionRpcSecurityTest} and
 * {@code SessionFailuresTest} refuse to other users and to callers without the secret): where its
 * containers listen, its tracking page behind YARN's web proxy, and what its logs hold. Each request
 * here is made without any credentials, as any process on the network could.
 */
@Tag("minicluster")
@Timeout(600)
@ExtendWith(SharedCluster.class)
class SessionDoorsTest {

  private static final String SESSION = "doors";
  private static final String JOB_NAME = "doors-empty-job";
  /** An address of this host's loopback network that is not the NodeManagers' host (127.0.0.1). */
  private static final String ANOTHER_LOCAL_ADDRESS = "127.0.0.2";

  private static ClusterFixture cluster;
  private static ApplicationReport session;
  private static String jobId;

  @BeforeAll
  static void runAJob() throws Exception {
    cluster = SharedCluster.cluster();
    Configuration conf = cluster.sessionConf(SESSION);
    try (Job job = LatencyBench.emptyJob(conf)) {
      job.setJobName(JOB_NAME);
      assertTrue(job.waitForCompletion(false), job.getStatus().getFailureInfo());
      jobId = job.getJobID().toString();
    }
    List<ApplicationReport> sessions = SessionClient.list(conf).stream()
        .filter(s -> SessionClient.sessionName(s).equals(SESSION)).toList();
    assertEquals(1, sessions.size(), "the user's sessions named " + SESSION);
    session = sessions.get(0);
  }

  @AfterAll
  static void stopTheSession() throws IOException {
    SessionClient.stop(cluster.sessionConf(SESSION), SESSION);
  }

  /**
   * The application's tracking link is the proxy's path for the session. (The mini-cluster's
   * ResourceManager writes it with the port its configuration had before its web server took an
   * ephemeral one, {@code localhost:0}; the proxy is at the port the cluster's configuration says.)
   */
  @Test
  void yarnsTrackingLinkGoesThroughItsProxyToTheSessionsPage() throws Exception {
    String path = "/proxy/" + session.getApplicationId() + "/";
    assertEquals(path, URI.create(session.getTrackingUrl()).getPath(), "the application's tracking link");
    String link = resourceManagersWeb() + path;

    Response page = get(link);
    assertEquals(200, page.status, page.body);
    assertTrue(page.body.contains("Vivace session " + session.getApplicationId()), page.body);
    assertTrue(page.body.contains("href=\"job/" + jobId + "\""), page.body);

    Response job = get(link + "job/" + jobId);
    assertEquals(200, job.status, job.body);
    assertTrue(job.body.contains(JOB_NAME) && job.body.contains("Counters"), job.body);
  }

  @Test
  void aRequestToThePageNotFromTheProxyIsSentToTheProxy() throws Exception {
    URI page = URI.create(session.getOriginalTrackingUrl());
    InetAddress host = InetAddress.getByName(page.getHost());
    try (Socket socket = new Socket(host, page.getPort(), InetAddress.getByName(ANOTHER_LOCAL_ADDRESS), 0)) {
      OutputStream out = socket.getOutputStream();
      out.write(("GET /job/" + jobId + " HTTP/1.1\r\nHost: " + page.getHost() + ":" + page.getPort()
          + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      String head = response.substring(0, Math.max(0, response.indexOf("\r\n\r\n")));
      assertTrue(head.startsWith("HTTP/1.1 302"), "a request from " + ANOTHER_LOCAL_ADDRESS + ":\n" + response);
      assertTrue(head.contains("\r\nLocation: " + resourceManagersWeb() + "/proxy/redirect/" + session.getApplicationId()
          + "/job/" + jobId + "\r\n"),
          "sent to the proxy's link of the same page:\n" + head);
      assertFalse(response.contains(JOB_NAME), "nothing of the job is shown:\n" + response);
    }
  }

  @Test
  void theSessionsContainersListenOnlyOnTheirHostsAddress() throws Exception {
    String application = session.getApplicationId().toString();
    List<ProcessHandle> containers = ContainerProcesses.allJavaWith(application);
    List<ProcessHandle> executors = ContainerProcesses.allJavaWith(application, "ExecutorMain");
    assertFalse(executors.isEmpty(), "the session's executors are running");
    Map<Long, InetSocketAddress> listening = listeningSockets();
    InetAddress host = InetAddress.getByName(ClusterFixture.NODE_MANAGER_HOST);
    Set<Integer> ports = new HashSet<>();
    for (ProcessHandle container : containers) {
      List<InetSocketAddress> own = new ArrayList<>();
      for (long inode : socketInodes(container.pid())) {
        if (listening.containsKey(inode)) {
          own.add(listening.get(inode));
        }
      }
      assertFalse(own.isEmpty(), "container process " + container.pid() + " serves something");
      for (InetSocketAddress address : own) {
        assertEquals(host, address.getAddress(), "process " + container.pid() + " listens on " + own);
        ports.add(address.getPort());
      }
    }
    assertTrue(ports.contains(session.getRpcPort()), "the AM's RPC port " + session.getRpcPort() + " among " + ports);
    assertTrue(ports.contains(URI.create(session.getOriginalTrackingUrl()).getPort()),
        "the AM's page " + session.getOriginalTrackingUrl() + " among " + ports);
    assertEquals(ClusterFixture.NODE_MANAGER_HOST, session.getHost(), "the AM's RPC host as YARN reports it");
    assertTrue(ports.size() >= 2 + executors.size(), "the AM's two servers and a shuffle server per executor: "
        + ports);
  }

  @Test
  void theSessionsLogsDoNotHoldItsSecret() throws Exception {
    String application = session.getApplicationId().toString();
    SessionSecret secret = SessionSecretStore.forCluster(cluster.sessionConf(SESSION))
        .read(session.getUser(), application).secret();
    List<String> forms = List.of(secret.encode(), HexFormat.of().formatHex(secret.key()),
        Base64.getEncoder().encodeToString(secret.key()));
    List<Path> logs = SessionLogs.files(cluster, application);
    assertTrue(logs.stream().anyMatch(p -> p.getFileName().toString().equals("syslog")), "the session's logs: " + logs);
    boolean jobNamed = false;
    for (Path log : logs) {
      String text = Files.readString(log, StandardCharsets.ISO_8859_1);
      for (String form : forms) {
        assertFalse(text.contains(form), log + " holds the session's secret");
      }
      jobNamed |= text.contains(jobId);
    }
    assertTrue(jobNamed, "the logs name the session's jobs");
  }

  /** The ResourceManager's web address (where its web proxy is), as the cluster's clients know it. */
  private static String resourceManagersWeb() {
    return "http://" + cluster.yarn().getConfig().get(YarnConfiguration.RM_WEBAPP_ADDRESS);
  }

  private record Response(int status, String body) {
  }

  /** A GET without credentials, not following redirects. */
  private static Response get(String url) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
    connection.setInstanceFollowRedirects(false);
    try {
      int status = connection.getResponseCode();
      InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      if (in != null) {
        try (in) {
          in.transferTo(body);
        }
      }
      return new Response(status, body.toString(StandardCharsets.UTF_8));
    } finally {
      connection.disconnect();
    }
  }

  /** The listening TCP sockets of this host (Linux's {@code /proc/net/tcp} and {@code tcp6}) by inode. */
  private static Map<Long, InetSocketAddress> listeningSockets() throws IOException {
    Map<Long, InetSocketAddress> sockets = new HashMap<>();
    for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
      List<String> lines = Files.readAllLines(Paths.get(table));
      for (String line : lines.subList(1, lines.size())) {
        String[] f = line.trim().split("\\s+");
        if (f[3].equals("0A")) { // LISTEN
          String[] local = f[1].split(":");
          sockets.put(Long.parseLong(f[9]), new InetSocketAddress(address(local[0]), Integer.parseInt(local[1], 16)));
        }
      }
    }
    return sockets;
  }

  /** An address as {@code /proc/net/tcp} writes it: 32-bit words in the host's (little-endian) order. */
  private static InetAddress address(String hex) throws IOException {
    byte[] bytes = HexFormat.of().parseHex(hex);
    for (int word = 0; word < bytes.length; word += 4) {
      for (int i = 0; i < 2; i++) {
        byte b = bytes[word + i];
        bytes[word + i] = bytes[word + 3 - i];
        bytes[word + 3 - i] = b;
      }
    }
    return InetAddress.getByAddress(bytes);
  }

  /** The inodes of the sockets process {@code pid} has open. */
  private static Set<Long> socketInodes(long pid) throws IOException {
    Set<Long> inodes = new HashSet<>();
    try (Stream<Path> fds = Files.list(Paths.get("/proc/" + pid + "/fd"))) {
      for (Path fd : (Iterable<Path>) fds::iterator) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(Long.parseLong(target.substring("socket:[".length(), target.length() - 1)));
          }
        } catch (IOException closedMeanwhile) {
          // a descriptor closed while listed
        }
      }
    }
    return inodes;
  }
}
