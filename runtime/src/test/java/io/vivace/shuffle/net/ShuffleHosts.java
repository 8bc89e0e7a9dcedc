package io.vivace.shuffle.net;

import io.vivace.localdisk.ScratchDir;
import io.vivace.segment.Segment;
import io.vivace.segment.SegmentCodec;
import io.vivace.segment.SegmentReader;
import io.vivace.shuffle.MapOutput;
import io.vivace.shuffle.ShuffleMemory;
import io.vivace.shuffle.ShuffleRegistry;
import io.vivace.sort.MapOutputBuffer;
import io.vivace.sort.MapOutputCounters;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;

/**
 * Executors of one job in this JVM, as a session would have them on several hosts: each runs some
 * of the job's maps through the real sort buffer ({@link MapOutputBuffer}), publishes their outputs
 * in its own {@link ShuffleRegistry} (in memory within its budget, else on its local disk) and
 * serves them with a {@link MapOutputServer} on a real socket. What the maps wrote is kept, so that
 * what a reduce fetches can be compared with the segments themselves.
 */
final class ShuffleHosts implements AutoCloseable {

  static final String JOB = "job_1700000000000_0007";
  static final byte[] KEY = "the job's shuffle key, 32 bytes!".getBytes(StandardCharsets.US_ASCII);
  static final String HOST = InetAddress.getLoopbackAddress().getHostAddress();

  /** One executor: its maps' outputs and its server. */
  static final class Executor {
    final ShuffleMemory memory;
    final ShuffleRegistry registry;
    final Map<Integer, String> attempts = new HashMap<>();
    MapOutputServer server;
    MapOutputSource source;

    Executor(ShuffleMemory memory, int maps, int partitions) {
      this.memory = memory;
      this.registry = new ShuffleRegistry(maps, partitions);
      // as the lead's executor will: the registry's output, if the attempt asked for is the one that made it
      this.source = (job, map, attempt) -> JOB.equals(job) && attempt.equals(attempts.get(map))
          ? registry.mapOutput(map) : null;
    }

    void start(Function<String, byte[]> keys, Configuration tls) throws IOException {
      server = new MapOutputServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4,
          (job, map, attempt) -> source.find(job, map, attempt), keys, tls == null ? null : ServerTls.start(tls));
    }
  }

  final int maps;
  final int partitions;
  final SegmentCodec codec;
  final List<Executor> executors = new ArrayList<>();
  /** Per map, the executor running it. */
  final int[] executorOf;
  final List<MapOutputLocation> locations = new ArrayList<>();

  /**
   * {@code maps} maps of {@code recordsPerMap} records into {@code partitions} partitions, map m
   * on executor m % budgets.length, whose shuffle budget is {@code budgets[e]} bytes.
   */
  ShuffleHosts(File mapDisk, int maps, int partitions, int recordsPerMap, SegmentCodec codec, long... budgets)
      throws Exception {
    this(mapDisk, null, maps, partitions, recordsPerMap, codec, budgets);
  }

  /** As above, the servers over TLS with the settings of {@code tls} (Hadoop's ssl-server.xml), or in clear when null. */
  ShuffleHosts(File mapDisk, Configuration tls, int maps, int partitions, int recordsPerMap, SegmentCodec codec,
               long... budgets) throws Exception {
    this.maps = maps;
    this.partitions = partitions;
    this.codec = codec;
    this.executorOf = new int[maps];
    for (long budget : budgets) {
      executors.add(new Executor(new ShuffleMemory(budget), maps, partitions));
    }
    for (int m = 0; m < maps; m++) {
      int e = m % budgets.length;
      executorOf[m] = e;
      Executor executor = executors.get(e);
      String attempt = "attempt_1700000000000_0007_m_" + String.format("%06d", m) + "_0";
      File spills = new File(mapDisk, "executor" + e + "/" + attempt);
      executor.registry.publish(m, runMap(m, recordsPerMap, executor.memory, spills));
      executor.attempts.put(m, attempt);
    }
    for (Executor e : executors) {
      e.start(job -> JOB.equals(job) ? KEY : null, tls);
    }
    for (int m = 0; m < maps; m++) {
      Executor e = executors.get(executorOf[m]);
      locations.add(new MapOutputLocation(m, HOST, e.server.port(), e.attempts.get(m)));
    }
  }

  /** Where each map's output is, named by {@code host} rather than by {@link #HOST}. */
  List<MapOutputLocation> locationsAt(String host) {
    List<MapOutputLocation> named = new ArrayList<>();
    for (MapOutputLocation l : locations) {
      named.add(new MapOutputLocation(l.mapIndex(), host, l.port(), l.attemptId()));
    }
    return named;
  }

  /** A map's output, made by the real sort buffer from random text records. */
  private MapOutput runMap(int map, int records, ShuffleMemory memory, File spillDir) throws Exception {
    Configuration conf = new Configuration();
    Counters counters = new Counters();
    MapOutputCounters mapCounters = new MapOutputCounters(counters.findCounter(TaskCounter.MAP_OUTPUT_RECORDS),
        counters.findCounter(TaskCounter.MAP_OUTPUT_BYTES), counters.findCounter(TaskCounter.SPILLED_RECORDS),
        counters.findCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES));
    MapOutputBuffer.Settings settings = new MapOutputBuffer.Settings(partitions, 4L << 20,
        WritableComparator.get(Text.class, conf), null, 3, 10, ScratchDir.of(spillDir), memory, mapCounters, codec);
    SerializationFactory serialization = new SerializationFactory(conf);
    MapOutputBuffer<Text, Text> buffer = new MapOutputBuffer<>(settings, serialization.getSerializer(Text.class),
        serialization.getSerializer(Text.class));
    Random random = new Random(map);
    Text key = new Text();
    Text value = new Text();
    for (int i = 0; i < records; i++) {
      key.set("key-" + random.nextInt(records));
      value.set("map " + map + " record " + i + " " + "v".repeat(random.nextInt(60)));
      // the last partition stays empty in every map: empty answers are part of every fetch
      buffer.collect(key, value, random.nextInt(Math.max(1, partitions - 1)));
    }
    return buffer.finish();
  }

  /** The non-empty segments of {@code partition}, in map order, as the maps' executors hold them. */
  List<Segment> heldSegments(int partition) {
    List<Segment> segments = new ArrayList<>();
    for (int m = 0; m < maps; m++) {
      Segment s = executors.get(executorOf[m]).registry.mapOutput(m).partition(partition);
      if (s != null) {
        segments.add(s);
      }
    }
    return segments;
  }

  long heldBytes(int partition) {
    return heldSegments(partition).stream().mapToLong(Segment::length).sum();
  }

  /** A segment's records, each as its key's and value's bytes joined by a tab. */
  static List<String> records(Segment segment) throws IOException {
    List<String> out = new ArrayList<>();
    try (SegmentReader reader = segment.open()) {
      while (reader.next()) {
        out.add(text(reader.key()) + "\t" + text(reader.value()));
      }
    }
    return out;
  }

  private static String text(DataInputBuffer in) {
    byte[] bytes = Arrays.copyOfRange(in.getData(), in.getPosition(), in.getLength());
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() {
    for (Executor e : executors) {
      if (e.server != null) {
        e.server.close();
      }
      e.registry.releaseAll();
    }
  }
}
