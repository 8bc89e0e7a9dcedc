package io.vivace.shuffle.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.localdisk.ScratchDir;
import io.vivace.merge.MergingIterator;
import io.vivace.merge.SegmentMerger;
import io.vivace.segment.FileSegment;
import io.vivace.segment.Segment;
import io.vivace.segment.SegmentCodec;
import io.vivace.shuffle.MapOutput;
import io.vivace.shuffle.ShuffleMemory;
import io.vivace.shuffle.ShuffledPartition;
import io.vivace.task.TaskReporter;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.util.ReflectionUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A reduce's input fetched over real sockets from executors in this JVM ({@link ShuffleHosts}: real
 * map outputs from the sort buffer, real registries and servers): the records and their map order
 * are those of the segments the executors hold, raw or compressed, in memory or on disk; and every
 * way it can fail (a wrong key, an executor gone in the middle, an answer that stalls, an output
 * the executor no longer holds, the reduce interrupted) ends with the failure counted, named, and
 * nothing left in memory or on disk.
 */
@Timeout(300) // a hang guard only: every test takes about a second
class FetchedShuffleInputTest {

  private static final long LARGE = 256L << 20;
  /** Quick retries: a test's failures take milliseconds. */
  private static final FetchSettings QUICK = new FetchSettings(3, 5_000, 20_000, 2, 10);

  @TempDir
  Path mapDisks;
  @TempDir
  Path reduceDisk;

  private final TaskReporter reporter = new TaskReporter();
  private ShuffleHosts hosts;
  private ShuffleRelay relay;

  @AfterEach
  void closeHosts() throws IOException {
    if (relay != null) {
      relay.close();
    }
    if (hosts != null) {
      hosts.close();
    }
  }

  private FetchedShuffleInput input(int partition, ShuffleMemory memory, byte[] key, FetchSettings settings) {
    return new FetchedShuffleInput(ShuffleHosts.JOB, partition, hosts.locations, hosts.codec, memory,
        ScratchDir.of(reduceDisk.toFile()), key, reporter, settings, null);
  }

  private long errors(ShuffleError error) {
    return reporter.getCounter(ShuffleError.GROUP, error.name()).getValue();
  }

  private List<Path> reduceFiles() throws IOException {
    try (Stream<Path> files = Files.walk(reduceDisk)) {
      return files.filter(Files::isRegularFile).toList();
    }
  }

  /** The records a reduce's merge of {@code segments} gives, in order: key and value bytes. */
  private static List<String> merged(List<Segment> segments, Path tempDir) throws IOException {
    SegmentMerger merger = new SegmentMerger(WritableComparator.get(Text.class), 3, tempDir.toFile());
    List<String> out = new ArrayList<>();
    try (MergingIterator it = merger.merge(segments)) {
      while (it.next()) {
        out.add(text(it.getKey()) + "\t" + text(it.getValue()));
      }
    }
    return out;
  }

  private static String text(DataInputBuffer in) {
    return new String(in.getData(), in.getPosition(), in.getLength() - in.getPosition(), StandardCharsets.ISO_8859_1);
  }

  /** Equal lists, told by their sizes and first difference (they hold thousands of records). */
  private static void assertSameRecords(List<String> expected, List<String> actual, String what) {
    for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
      assertEquals(expected.get(i), actual.get(i), what + ": record " + i);
    }
    assertEquals(expected.size(), actual.size(), what + ": records");
  }

  /** The fetched segments are the held ones: same count, same map order, same stored length and records. */
  private void assertSameSegments(List<Segment> held, List<Segment> fetched, String what) throws IOException {
    assertEquals(held.size(), fetched.size(), what + ": one segment per non-empty map output");
    for (int i = 0; i < held.size(); i++) {
      assertEquals(held.get(i).length(), fetched.get(i).length(), what + ": stored bytes of segment " + i);
      assertEquals(held.get(i).codec().compresses(), fetched.get(i).codec().compresses(), what + ": codec");
      assertSameRecords(ShuffleHosts.records(held.get(i)), ShuffleHosts.records(fetched.get(i)),
          what + ": segment " + i + " (map order)");
    }
  }

  @Test
  void aReduceFetchesEveryMapFromThreeExecutorsInMapOrder() throws Exception {
    // the third executor had no shuffle budget: it serves its outputs from its local disk
    hosts = new ShuffleHosts(mapDisks.toFile(), 7, 4, 2_000, SegmentCodec.NONE, LARGE, LARGE, 0);
    assertFalse(hosts.executors.get(2).registry.mapOutput(2).partition(0).inMemory());
    ShuffleMemory memory = new ShuffleMemory(LARGE);
    for (int p = 0; p < hosts.partitions; p++) {
      FetchedShuffleInput input = input(p, memory, ShuffleHosts.KEY, QUICK);
      ShuffledPartition taken = input.take(p);
      List<Segment> fetched = taken.segments();
      List<Segment> held = hosts.heldSegments(p);
      assertSameSegments(held, fetched, "partition " + p);
      assertEquals(hosts.heldBytes(p), taken.storedBytes(), "the stored bytes fetched (REDUCE_SHUFFLE_BYTES)");
      assertEquals(hosts.heldBytes(p), memory.used(), "fetched segments are charged to the budget");
      assertTrue(fetched.stream().allMatch(Segment::inMemory), "within the budget, fetched segments stay on the heap");
      assertSameRecords(merged(held, mapDisks), merged(fetched, reduceDisk), "the reduce's merge");
      assertEquals(0, taken.spilledRecords(), "nothing is merged ahead of a fetching reduce");
      input.close();
      assertEquals(0, memory.used(), "closing the input gives the memory back");
    }
    assertTrue(hosts.heldSegments(3).isEmpty(), "the last partition is empty in every map");
    for (ShuffleError e : ShuffleError.values()) {
      assertEquals(0, errors(e), e + ": nothing failed, and the counter shows as Hadoop's does");
    }
    long answers = hosts.executors.stream().mapToLong(e -> e.server.answered()).sum();
    assertEquals(7L * hosts.partitions, answers, "one answer per map and partition, empty ones included");
  }

  @ParameterizedTest
  @ValueSource(strings = {"DefaultCodec", "GzipCodec"})
  void compressedSegmentsArriveAsTheMapsStoredThem(String codecName) throws Exception {
    Class<? extends CompressionCodec> cls = Class.forName("org.apache.hadoop.io.compress." + codecName)
        .asSubclass(CompressionCodec.class);
    SegmentCodec codec = SegmentCodec.of(ReflectionUtils.newInstance(cls, new Configuration()));
    hosts = new ShuffleHosts(mapDisks.toFile(), 5, 3, 3_000, codec, LARGE, 0);
    ShuffleMemory memory = new ShuffleMemory(LARGE);
    for (int p = 0; p < hosts.partitions; p++) {
      try (FetchedShuffleInput input = input(p, memory, ShuffleHosts.KEY, QUICK)) {
        List<Segment> fetched = input.take(p).segments();
        assertSameSegments(hosts.heldSegments(p), fetched, codecName + " partition " + p);
        assertTrue(fetched.stream().allMatch(s -> s.codec().compresses()));
        assertSameRecords(merged(hosts.heldSegments(p), mapDisks), merged(fetched, reduceDisk), "the reduce's merge");
      }
    }
    assertEquals(0, memory.used());
  }

  @Test
  void outputsOverTheBudgetLandOnDiskAndAreDeletedWhenReleased() throws Exception {
    hosts = new ShuffleHosts(mapDisks.toFile(), 6, 2, 2_000, SegmentCodec.NONE, LARGE, LARGE);
    List<Segment> held = hosts.heldSegments(0);

    ShuffleMemory none = new ShuffleMemory(0);
    FetchedShuffleInput toDisk = input(0, none, ShuffleHosts.KEY, QUICK);
    List<Segment> fetched = toDisk.take(0).segments();
    assertSameSegments(held, fetched, "on disk");
    assertTrue(fetched.stream().noneMatch(Segment::inMemory));
    assertEquals(held.size(), reduceFiles().size(), "one scratch file per fetched map output: " + reduceFiles());
    for (Segment s : fetched) {
      assertTrue(((FileSegment) s).file().toPath().startsWith(reduceDisk), "in the attempt's scratch folder");
    }
    toDisk.close();
    assertEquals(List.of(), reduceFiles(), "released fetched outputs leave no file");

    // a budget that takes about half of them: the rest go to disk
    long half = held.stream().mapToLong(Segment::length).sum() / 2;
    ShuffleMemory some = new ShuffleMemory(half);
    try (FetchedShuffleInput mixed = input(0, some, ShuffleHosts.KEY, QUICK)) {
      fetched = mixed.take(0).segments();
      assertSameSegments(held, fetched, "half in memory");
      long inMemory = fetched.stream().filter(Segment::inMemory).mapToLong(Segment::length).sum();
      assertTrue(inMemory > 0 && inMemory <= half, "in memory: " + inMemory + " of a budget of " + half);
      assertEquals(inMemory, some.used());
      assertEquals(fetched.stream().filter(s -> !s.inMemory()).count(), reduceFiles().size());
    }
    assertEquals(0, some.used());
    assertEquals(List.of(), reduceFiles());
  }

  @Test
  void aWrongKeyIsRefusedCountedAndNotTakenForALostOutput() throws Exception {
    hosts = new ShuffleHosts(mapDisks.toFile(), 4, 2, 500, SegmentCodec.NONE, LARGE, LARGE);
    ShuffleMemory memory = new ShuffleMemory(LARGE);
    byte[] wrong = "another job's key, not this one's".getBytes(StandardCharsets.US_ASCII);
    FetchedShuffleInput input = input(0, memory, wrong, QUICK);
    IOException e = assertThrows(IOException.class, () -> input.take(0));
    assertFalse(e instanceof MapOutputLostException, "a refusal is not a lost output: " + e);
    assertTrue(e.getMessage().contains("403") && e.getMessage().contains("key"), e.getMessage());
    long refused = hosts.executors.stream().mapToLong(x -> x.server.refused()).sum();
    assertTrue(refused >= 1, "the servers counted the refusal");
    assertTrue(errors(ShuffleError.IO_ERROR) >= 1 && errors(ShuffleError.IO_ERROR) <= refused,
        "IO_ERROR " + errors(ShuffleError.IO_ERROR) + ", refused " + refused);
    assertEquals(0, errors(ShuffleError.CONNECTION));
    assertEquals(0, hosts.executors.stream().mapToLong(x -> x.server.answered()).sum(), "nothing served");
    assertEquals(0, memory.used());
    assertEquals(List.of(), reduceFiles());
  }

  /** Makes map {@code map}'s partition 0 stall half way when its executor serves it. */
  private StallingSegment stall(int map) {
    ShuffleHosts.Executor executor = hosts.executors.get(hosts.executorOf[map]);
    MapOutput real = executor.registry.mapOutput(map);
    StallingSegment stalling = new StallingSegment(real.partition(0));
    Segment[] partitions = new Segment[real.partitions()];
    partitions[0] = stalling;
    for (int p = 1; p < partitions.length; p++) {
      partitions[p] = real.partition(p);
    }
    MapOutput served = new MapOutput(partitions);
    MapOutputSource before = executor.source;
    executor.source = (job, m, attempt) -> m == map ? (before.find(job, m, attempt) == null ? null : served)
        : before.find(job, m, attempt);
    return stalling;
  }

  @Test
  void anExecutorGoneInTheMiddleIsRetriedThenItsMapIsLost() throws Exception {
    // maps 0 and 3 on executor 0, 1 and 4 on executor 1, map 2 alone on executor 2
    hosts = new ShuffleHosts(mapDisks.toFile(), 5, 2, 2_000, SegmentCodec.NONE, LARGE, LARGE, LARGE);
    StallingSegment stalling = stall(2);
    ShuffleHosts.Executor gone = hosts.executors.get(2);
    int port = gone.server.port();
    Thread killer = new Thread(() -> {
      try {
        stalling.halfSent.await();
        gone.server.close(); // for real: the port closes and the answer under way is cut
      } catch (InterruptedException ignored) {
        // the test ends
      }
    });
    killer.start();
    ShuffleMemory memory = new ShuffleMemory(LARGE);
    FetchedShuffleInput input = input(0, memory, ShuffleHosts.KEY, QUICK);
    MapOutputLostException e = assertThrows(MapOutputLostException.class, () -> input.take(0));
    killer.join();

    assertEquals(List.of(2), e.maps(), e.getMessage());
    assertEquals(ShuffleHosts.HOST, e.host());
    assertEquals(port, e.port());
    assertTrue(e.getMessage().contains("map 2") && e.getMessage().contains(ShuffleHosts.HOST + ":" + port)
        && e.getMessage().contains("after 3 tries"), e.getMessage());
    assertEquals(1, errors(ShuffleError.IO_ERROR), "the answer cut in the middle");
    assertEquals(QUICK.retries(), errors(ShuffleError.CONNECTION), "every retry finds the port closed");
    assertEquals(0, memory.used(), "what was fetched from the other executors is released");
    assertEquals(List.of(), reduceFiles());
  }

  @Test
  void anAnswerThatStallsIsCutAfterTheReadTimeoutAndRetried() throws Exception {
    hosts = new ShuffleHosts(mapDisks.toFile(), 3, 2, 2_000, SegmentCodec.NONE, LARGE, LARGE, LARGE);
    stall(1); // never resumes
    FetchSettings impatient = new FetchSettings(3, 5_000, 300, 1, 10);
    ShuffleMemory memory = new ShuffleMemory(LARGE);
    FetchedShuffleInput input = input(0, memory, ShuffleHosts.KEY, impatient);
    MapOutputLostException e = assertThrows(MapOutputLostException.class, () -> input.take(0));
    assertEquals(List.of(1), e.maps(), e.getMessage());
    assertTrue(e.getMessage().contains("mapreduce.reduce.shuffle.read.timeout"), e.getMessage());
    assertEquals(2, errors(ShuffleError.IO_ERROR), "both tries stalled");
    assertEquals(0, errors(ShuffleError.CONNECTION));
    assertEquals(0, memory.used());
  }

  @Test
  void anOutputTheExecutorNoLongerHoldsIsLostAtOnce() throws Exception {
    hosts = new ShuffleHosts(mapDisks.toFile(), 4, 2, 500, SegmentCodec.NONE, LARGE, LARGE);
    // the location names an attempt of map 1 the executor never ran (or has dropped)
    MapOutputLocation held = hosts.locations.get(1);
    hosts.locations.set(1, new MapOutputLocation(1, held.host(), held.port(), held.attemptId().replaceAll("_0$", "_1")));
    ShuffleMemory memory = new ShuffleMemory(LARGE);
    FetchedShuffleInput input = input(1, memory, ShuffleHosts.KEY, QUICK);
    MapOutputLostException e = assertThrows(MapOutputLostException.class, () -> input.take(1));
    assertEquals(List.of(1), e.maps());
    assertEquals(held.port(), e.port());
    assertTrue(e.getMessage().contains("404") && !e.getMessage().contains("tries"), e.getMessage());
    assertEquals(1, errors(ShuffleError.IO_ERROR), "not tried again");
    assertEquals(0, memory.used());
  }

  @Test
  void anInterruptedFetchStopsAndLeavesNothingBehind() throws Exception {
    hosts = new ShuffleHosts(mapDisks.toFile(), 5, 2, 4_000, SegmentCodec.NONE, LARGE, LARGE, LARGE);
    StallingSegment stalling = stall(2);
    ShuffleMemory none = new ShuffleMemory(0); // to disk: the stalled fetch has a file half written
    FetchedShuffleInput input = input(0, none, ShuffleHosts.KEY, QUICK);
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicReference<Boolean> interruptKept = new AtomicReference<>();
    Thread reduce = new Thread(() -> {
      try {
        input.take(0);
      } catch (Throwable t) {
        thrown.set(t);
        interruptKept.set(Thread.currentThread().isInterrupted());
      }
    }, "test-reduce");
    reduce.start();
    stalling.halfSent.await();
    Path partial = reduceDisk.resolve("map_2.out");
    while (!(Files.exists(partial) && Files.size(partial) > 0) && reduce.isAlive()) {
      Thread.sleep(5);
    }
    assertTrue(Files.size(partial) > 0, "the stalled fetch wrote part of its file");
    reduce.interrupt();
    reduce.join(60_000);
    assertFalse(reduce.isAlive(), "the interrupted fetch stopped");

    assertInstanceOf(InterruptedIOException.class, thrown.get());
    assertTrue(interruptKept.get(), "the reduce thread keeps its interrupt");
    assertEquals(List.of(), reduceFiles(), "no scratch file left, the half-written one included");
    assertEquals(0, none.used());
    for (ShuffleError e : ShuffleError.values()) {
      assertEquals(0, errors(e), e + ": a killed reduce is no fetch failure");
    }
    Set<Thread> threads = Thread.getAllStackTraces().keySet();
    assertTrue(threads.stream().noneMatch(t -> t.getName().startsWith("vivace-fetch-")),
        "every fetch thread ended before the interrupted fetch returned");
    input.close();
  }

  @Test
  void manyMapOutputsOfOneExecutorComeOverOneConnectionPerFetchThread() throws Exception {
    hosts = new ShuffleHosts(mapDisks.toFile(), 40, 2, 200, SegmentCodec.NONE, LARGE);
    relay = ShuffleRelay.raw(hosts.executors.get(0).server.port());
    hosts.locations.replaceAll(l -> relay.inFrontOf(List.of(l)).get(0));
    ShuffleMemory memory = new ShuffleMemory(LARGE);
    try (FetchedShuffleInput input = input(0, memory, ShuffleHosts.KEY, QUICK)) {
      assertSameSegments(hosts.heldSegments(0), input.take(0).segments(), "over kept-alive connections");
      while (relay.open() > 0) {
        Thread.sleep(5); // the relay sees the close; never closed, the test ends by its timeout
      }
    }
    assertEquals(40, hosts.executors.get(0).server.answered(), "one request per map");
    assertEquals("true", System.getProperty(MapOutputServer.NO_DELAY_PROPERTY),
        "the server sends without Nagle's delay, else each small answer on a kept connection waits ~40 ms");
    assertTrue(relay.accepted() >= 1 && relay.accepted() <= QUICK.parallelCopies(),
        relay.accepted() + " connections for 40 maps and " + QUICK.parallelCopies() + " fetch threads");
    for (ShuffleError e : ShuffleError.values()) {
      assertEquals(0, errors(e), e.name());
    }
  }

  @Test
  void aConnectionTheServerClosesBetweenAnswersIsOpenedAgainWithoutAFailedTry() throws Exception {
    hosts = new ShuffleHosts(mapDisks.toFile(), 12, 2, 200, SegmentCodec.NONE, LARGE);
    // every third answer is the last of its connection: the next request on it finds it closed
    relay = ShuffleRelay.http(hosts.executors.get(0).server.port(), answer -> answer % 3 == 0);
    hosts.locations.replaceAll(l -> relay.inFrontOf(List.of(l)).get(0));
    FetchSettings oneThreadNoRetry = new FetchSettings(1, 5_000, 20_000, 0, 10);
    ShuffleMemory memory = new ShuffleMemory(LARGE);
    try (FetchedShuffleInput input = input(0, memory, ShuffleHosts.KEY, oneThreadNoRetry)) {
      assertSameSegments(hosts.heldSegments(0), input.take(0).segments(), "over connections closed by the server");
    }
    assertEquals(4, relay.accepted(), "a new connection after every third answer");
    MapOutputServer server = hosts.executors.get(0).server;
    assertEquals(12, server.answered(), "each map answered once");
    assertEquals(0, server.refused(), "a request sent again has a stamp of its own");
    for (ShuffleError e : ShuffleError.values()) {
      assertEquals(0, errors(e), e + ": a connection closed while idle is no failed try");
    }
  }

  @Test
  void aStopWhileReadingOnAKeptConnectionEndsTheFetch() throws Exception {
    hosts = new ShuffleHosts(mapDisks.toFile(), 6, 2, 4_000, SegmentCodec.NONE, LARGE);
    StallingSegment stalling = stall(3); // maps 0 to 2 come first, over the same connection
    relay = ShuffleRelay.raw(hosts.executors.get(0).server.port());
    hosts.locations.replaceAll(l -> relay.inFrontOf(List.of(l)).get(0));
    // a read timeout far beyond the test's wait: only the stop can end the stalled read
    FetchSettings oneThreadPatient = new FetchSettings(1, 5_000, 600_000, 2, 10);
    ShuffleMemory none = new ShuffleMemory(0);
    FetchedShuffleInput input = input(0, none, ShuffleHosts.KEY, oneThreadPatient);
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread reduce = new Thread(() -> {
      try {
        input.take(0);
      } catch (Throwable t) {
        thrown.set(t);
      }
    }, "test-reduce");
    reduce.start();
    stalling.halfSent.await();
    Path partial = reduceDisk.resolve("map_3.out");
    while (!(Files.exists(partial) && Files.size(partial) > 0) && reduce.isAlive()) {
      Thread.sleep(5);
    }
    assertEquals(1, relay.accepted(), "map 3 is read over the connection maps 0 to 2 came over");
    reduce.interrupt();
    reduce.join(60_000);
    assertFalse(reduce.isAlive(), "the interrupted fetch stopped");
    assertInstanceOf(InterruptedIOException.class, thrown.get());
    assertEquals(1, relay.accepted(), "no connection opened after the stop");
    assertEquals(List.of(), reduceFiles(), "no scratch file left");
    assertEquals(0, none.used());
    for (ShuffleError e : ShuffleError.values()) {
      assertEquals(0, errors(e), e + ": a stop is no fetch failure");
    }
    stalling.resume.countDown();
    input.close();
  }

  @Test
  void closingTheInputReleasesWhatItFetchedAndRefusesASecondTake() throws Exception {
    hosts = new ShuffleHosts(mapDisks.toFile(), 3, 2, 500, SegmentCodec.NONE, LARGE);
    ShuffleMemory memory = new ShuffleMemory(LARGE);
    FetchedShuffleInput input = input(0, memory, ShuffleHosts.KEY, QUICK);
    assertThrows(IllegalArgumentException.class, () -> input.take(1));
    List<Segment> fetched = input.take(0).segments();
    assertNotEquals(0, memory.used());
    assertNotNull(fetched);
    assertThrows(IllegalStateException.class, () -> input.take(0));
    input.close();
    input.close();
    assertEquals(0, memory.used());
  }
}
