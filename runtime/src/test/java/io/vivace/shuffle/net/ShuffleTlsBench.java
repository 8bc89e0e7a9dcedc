package io.vivace.shuffle.net;

import io.vivace.localdisk.ScratchDir;
import io.vivace.segment.MemorySegment;
import io.vivace.segment.Segment;
import io.vivace.segment.SegmentCodec;
import io.vivace.shuffle.MapOutput;
import io.vivace.shuffle.ShuffleMemory;
import io.vivace.task.TaskReporter;
import java.io.File;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;

/**
 * What TLS costs the shuffle: a reduce fetching {@code MB} (256 by default) of map output, in
 * {@code MAPS} segments of one executor's server on the loopback, in clear and over TLS (Hadoop's
 * SSLFactory, keystores from TlsFiles), rounds alternating; prints each round's MB/s and
 * the ratio of the medians; with many small segments (e.g. 1 1024: a job of 1,024 tiny maps) it
 * shows what each fetch's connection costs. Not a test: run it by hand (docs/cluster.md, "Security").
 *
 * <p>Arguments: [MB] [MAPS] [ROUNDS].
 */
public final class ShuffleTlsBench {

  private static final String JOB = "job_1700000000000_0001";
  private static final byte[] KEY = "the bench's shuffle key, 32 byte".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  public static void main(String[] args) throws Exception {
    int mb = args.length > 0 ? Integer.parseInt(args[0]) : 256;
    int maps = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    File work = Files.createTempDirectory("vivace-tls-bench").toFile();
    String sslConfDir = TlsFiles.classPathDir(ShuffleTlsBench.class);
    Configuration tls = TlsFiles.make(work.toPath(), sslConfDir, false);
    tls.setBoolean(ShuffleTls.ENABLED_KEY, true);

    Random random = new Random(1);
    Segment[] segments = new Segment[maps];
    for (int m = 0; m < maps; m++) {
      byte[] data = new byte[(int) ((long) mb << 20) / maps];
      random.nextBytes(data); // incompressible, as compressed map output is
      segments[m] = new MemorySegment(data, 0, data.length, released -> { }, SegmentCodec.NONE);
    }
    MapOutputSource source = (job, map, attempt) -> new MapOutput(new Segment[] {segments[map]});
    InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    try (MapOutputServer plain = new MapOutputServer(loopback, 4, source, job -> KEY);
         MapOutputServer encrypted = new MapOutputServer(loopback, 4, source, job -> KEY, ServerTls.start(tls));
         ClientTls client = ClientTls.startIfEnabled(tls)) {
      List<Double> clear = new ArrayList<>();
      List<Double> overTls = new ArrayList<>();
      for (int round = 0; round <= rounds; round++) { // round 0 warms up
        double c = fetch(plain.port(), null, maps, mb, work);
        double t = fetch(encrypted.port(), client, maps, mb, work);
        System.out.printf("round %d%s: clear %.0f MB/s (%.0f ms), TLS %.0f MB/s (%.0f ms)%n", round,
            round == 0 ? " (warm-up)" : "", c, mb / c * 1000, t, mb / t * 1000);
        if (round > 0) {
          clear.add(c);
          overTls.add(t);
        }
      }
      double c = median(clear);
      double t = median(overTls);
      System.out.printf("%d MB in %d segments, 5 parallel copies, medians of %d rounds: clear %.0f MB/s (%.0f ms),"
          + " TLS %.0f MB/s (%.0f ms), TLS/clear %.2f%n", mb, maps, rounds, c, mb / c * 1000, t, mb / t * 1000, t / c);
    } finally {
      TlsFiles.remove(sslConfDir);
      org.apache.hadoop.fs.FileUtil.fullyDelete(work);
    }
  }

  /** MB/s of one reduce's fetch of every map's partition 0 from the server at {@code port}. */
  private static double fetch(int port, ClientTls client, int maps, int mb, File work) throws Exception {
    List<MapOutputLocation> locations = new ArrayList<>();
    String host = InetAddress.getLoopbackAddress().getHostAddress();
    for (int m = 0; m < maps; m++) {
      locations.add(new MapOutputLocation(m, host, port, "attempt_1700000000000_0001_m_00000" + m + "_0"));
    }
    FetchSettings settings = new FetchSettings(5, 5_000, 60_000, 0, 10);
    long start = System.nanoTime();
    try (FetchedShuffleInput input = new FetchedShuffleInput(JOB, 0, locations, SegmentCodec.NONE,
        new ShuffleMemory(4L * mb << 20), ScratchDir.of(work), KEY, new TaskReporter(), settings, client)) {
      long bytes = input.take(0).storedBytes();
      if (bytes != (long) mb << 20) {
        throw new IllegalStateException("fetched " + bytes + " bytes, not " + ((long) mb << 20));
      }
      return bytes / 1048576.0 / ((System.nanoTime() - start) / 1e9);
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
