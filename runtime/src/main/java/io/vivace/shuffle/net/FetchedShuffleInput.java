package io.vivace.shuffle.net;

import io.vivace.localdisk.LocalFileStatistics;
import io.vivace.localdisk.ScratchDir;
import io.vivace.merge.HelperThreads;
import io.vivace.segment.Segment;
import io.vivace.segment.SegmentCodec;
import io.vivace.shuffle.ShuffleInput;
import io.vivace.shuffle.ShuffleMemory;
import io.vivace.shuffle.ShuffledPartition;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.mapred.Reporter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A reduce attempt's map outputs fetched from the executors that hold them (docs/shuffle.md).
 * {@link #take} fetches every map's partition, {@link FetchSettings#parallelCopies()} at
 * once on threads of its own (spread over the executors, each thread keeping its connection to an
 * executor for its next fetch from it, see {@link FetchOrder}), each into memory when the executor's
 * shuffle budget takes it, else into a file of the attempt's scratch folder; a failed try is
 * counted in Hadoop's shuffle error counters and tried again after a growing wait. A map whose
 * output cannot be fetched after the retries fails the whole fetch with a
 * {@link MapOutputLostException}; a fetch interrupted (the reduce killed) stops every try. The
 * connections close when the fetch ends, however it ends. Either
 * way what was fetched is released, in memory and on disk. What was fetched in full is released by
 * {@link #close()}, when the attempt ends.
 */
public final class FetchedShuffleInput implements ShuffleInput, Closeable {

  private static final Logger LOG = LoggerFactory.getLogger(FetchedShuffleInput.class);
  /** How often the waiting reduce thread shows the attempt's progress while bytes arrive. */
  private static final long TICK_MS = 500;

  private final String jobId;
  private final int partition;
  private final List<MapOutputLocation> locations;
  private final SegmentFetcher fetcher;
  private final Reporter reporter;
  private final FetchSettings settings;
  /** Guards the increments of the shuffle error counters, made from the fetch threads. */
  private final Object counting = new Object();

  // guarded by this
  private boolean taken;
  private boolean closed;
  private Round round;
  private Segment[] fetched;

  /**
   * The input of the reduce of {@code partition} of job {@code jobId}.
   *
   * @param locations where each map's output is, one per map in map order
   * @param codec the job's map output codec (how the maps stored their segments)
   * @param memory the executor's shuffle budget: fetched segments it takes stay on the heap
   * @param scratch the attempt's scratch folder: fetched segments the budget does not take go there
   * @param jobKey the job's shuffle key (the executors serving the maps check requests with it)
   * @param reporter the attempt's reporter: shuffle error counters, and progress while fetching
   * @param tls the executor's TLS for fetches, or null to fetch in clear
   */
  public FetchedShuffleInput(String jobId, int partition, List<MapOutputLocation> locations, SegmentCodec codec,
                             ShuffleMemory memory, ScratchDir scratch, byte[] jobKey, Reporter reporter,
                             FetchSettings settings, ClientTls tls) {
    if (!ShuffleAuth.usable(jobKey)) {
      throw new IllegalArgumentException("no shuffle key for " + jobId);
    }
    for (int i = 0; i < locations.size(); i++) {
      if (locations.get(i).mapIndex() != i) {
        throw new IllegalArgumentException("map output location " + i + " of " + jobId + " is "
            + locations.get(i) + ": locations must be one per map, in map order");
      }
    }
    this.jobId = jobId;
    this.partition = partition;
    this.locations = List.copyOf(locations);
    this.fetcher = new SegmentFetcher(jobId, partition, codec, memory, scratch, jobKey.clone(), settings, tls);
    this.reporter = reporter;
    this.settings = settings;
    // as Hadoop's reduce: the group shows, at 0, in every reduce that shuffles over the network
    for (ShuffleError e : ShuffleError.values()) {
      reporter.incrCounter(ShuffleError.GROUP, e.name(), 0);
    }
  }

  /** Fetches the partition; nothing is merged ahead of a reduce that fetches its input. */
  @Override
  public ShuffledPartition take(int partition) throws IOException {
    Round r;
    synchronized (this) {
      if (partition != this.partition) {
        throw new IllegalArgumentException("this input fetches partition " + this.partition + ", not " + partition);
      }
      if (taken) {
        throw new IllegalStateException("partition " + partition + " of " + jobId + " was already fetched");
      }
      if (closed) {
        throw new IOException("the fetched shuffle input of partition " + partition + " of " + jobId + " is closed");
      }
      taken = true;
      r = new Round();
      round = r;
    }
    Segment[] segments = r.run();
    synchronized (this) {
      round = null;
      if (closed) {
        releaseAll(segments);
        throw new IOException("the fetched shuffle input of partition " + partition + " of " + jobId
            + " was closed while it fetched");
      }
      fetched = segments;
      List<Segment> result = new ArrayList<>();
      long bytes = 0;
      for (Segment s : segments) {
        if (s != null) {
          bytes += s.length();
          result.add(s);
        }
      }
      return ShuffledPartition.of(result, bytes);
    }
  }

  /**
   * Releases what was fetched (memory back to the budget, files deleted) and stops a fetch under
   * way; call it when the attempt ends, however it ends. Twice does nothing.
   */
  @Override
  public void close() {
    Round r;
    Segment[] segments;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      r = round;
      segments = fetched;
      fetched = null;
    }
    if (r != null) {
      r.stop(); // take releases what it fetched and throws
    }
    releaseAll(segments);
  }

  private static void releaseAll(Segment[] segments) {
    if (segments != null) {
      for (Segment s : segments) {
        if (s != null) {
          s.release();
        }
      }
    }
  }

  private void count(ShuffleError error) {
    synchronized (counting) {
      reporter.incrCounter(ShuffleError.GROUP, error.name(), 1);
    }
  }

  /** {@code host:port} of map {@code map}'s executor. */
  private String executorOf(int map) {
    MapOutputLocation l = locations.get(map);
    return l.host() + ":" + l.port();
  }

  private FetchOrder fetchOrder() {
    List<String> executors = new ArrayList<>(locations.size());
    for (int m = 0; m < locations.size(); m++) {
      executors.add(executorOf(m));
    }
    return new FetchOrder(executors, partition);
  }

  /** One fetch of every map's partition: its threads, what they fetched, how it ended. */
  private final class Round {
    private final FetchOrder pending = fetchOrder();
    private final Segment[] results = new Segment[locations.size()];
    /** Maps fetched (empty ones included). */
    private final boolean[] done = new boolean[locations.size()];
    private final List<Fetcher> fetchers = new ArrayList<>();
    private final long[] io = new long[4];
    private final AtomicLong bytes = new AtomicLong();
    private int fetchedMaps;
    private int running;
    private IOException failure;
    private volatile boolean stopping;

    Segment[] run() throws IOException {
      int threads = Math.min(settings.parallelCopies(), locations.size());
      try {
        synchronized (this) {
          for (int i = 0; i < threads; i++) {
            Fetcher f = new Fetcher(this);
            fetchers.add(f);
            running++;
            f.thread = HelperThreads.start(f, "vivace-fetch-" + jobId + "-r" + partition + "-" + i);
          }
          awaitEnd();
        }
      } catch (InterruptedException e) {
        end(true);
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted fetching partition " + partition + " of " + jobId
            + "'s map outputs");
      }
      end(false);
      synchronized (this) {
        if (failure != null) {
          throw failure;
        }
        if (stopping) {
          throw new IOException("the fetch of partition " + partition + " of " + jobId + "'s map outputs was stopped");
        }
        return results;
      }
    }

    /** Waits, showing progress, until every fetcher ended or the round failed. */
    private void awaitEnd() throws InterruptedException {
      long shown = 0;
      while (running > 0 && failure == null && !stopping) {
        wait(TICK_MS);
        long b = bytes.get();
        if (b != shown) {
          shown = b;
          reporter.progress();
        }
      }
    }

    /**
     * Waits for the fetchers to end; when the round failed, or is {@code abandoned} (the reduce
     * thread was interrupted), stops them first and releases what they fetched.
     */
    private void end(boolean abandoned) {
      boolean failed;
      synchronized (this) {
        failed = abandoned || failure != null || stopping || fetchedMaps < results.length;
        if (failed) {
          stopping = true;
          pending.clear();
        }
      }
      if (failed) {
        for (Fetcher f : fetchers) {
          f.stop();
        }
      }
      for (Fetcher f : fetchers) {
        HelperThreads.join(f.thread);
      }
      synchronized (this) {
        LocalFileStatistics.charge(io);
        Arrays.fill(io, 0);
        if (failed) {
          releaseAll(results);
          Arrays.fill(results, null);
        }
      }
    }

    /** Asks the fetchers to stop (the input was closed while fetching). */
    synchronized void stop() {
      stopping = true;
      pending.clear();
      for (Fetcher f : fetchers) {
        f.stop();
      }
      notifyAll();
    }

    /** The next map for a fetcher that ended its fetch from {@code from} and keeps a connection to {@code connected}. */
    synchronized Integer next(String from, String connected) {
      return stopping || failure != null ? null : pending.next(from, connected);
    }

    synchronized void fetched(int map, Segment segment) {
      if (stopping || failure != null) {
        if (segment != null) {
          segment.release();
        }
        return;
      }
      results[map] = segment;
      done[map] = true;
      fetchedMaps++;
    }

    /** The fetch failed for good; the first failure ends the round (later ones, and a stop's, are by-products). */
    synchronized void failed(IOException e) {
      if (failure == null && !stopping) {
        failure = e;
        notifyAll();
      }
    }

    synchronized void fetcherEnded(long[] moved) {
      for (int i = 0; i < io.length; i++) {
        io[i] += moved[i];
      }
      running--;
      notifyAll();
    }

    /** The maps of the executor that held {@code lost} not fetched yet ({@code lost}'s among them), in map order. */
    synchronized List<Integer> unfetchedAt(MapOutputLocation lost) {
      List<Integer> maps = new ArrayList<>();
      for (MapOutputLocation l : locations) {
        if (!done[l.mapIndex()] && l.host().equals(lost.host()) && l.port() == lost.port()) {
          maps.add(l.mapIndex());
        }
      }
      return maps;
    }
  }

  /** A fetch thread: takes the next map, fetches it with retries, until none is left or the round stops. */
  private final class Fetcher implements Runnable, SegmentFetcher.Watch {
    private final Round round;
    /** Between fetches, the connection to the executor of the last one. */
    private final KeptConnection kept = new KeptConnection();
    Thread thread;
    /** The try under way's connection, closed to stop it; guarded by this. */
    private ShuffleConnection connection;
    private boolean stopped;

    Fetcher(Round round) {
      this.round = round;
    }

    @Override
    public void run() {
      long[] before = LocalFileStatistics.ofThisThread();
      try (kept) {
        String from = null;
        Integer map;
        while ((map = round.next(from, kept.address())) != null) {
          from = executorOf(map);
          round.fetched(map, fetchWithRetries(locations.get(map)));
        }
      } catch (InterruptedException | InterruptedIOException e) {
        if (!round.stopping) {
          round.failed(new InterruptedIOException("fetch thread " + Thread.currentThread().getName() + " interrupted"));
        }
      } catch (IOException e) {
        round.failed(e);
      } catch (RuntimeException | Error e) {
        round.failed(new IOException("fetching partition " + partition + " of " + jobId + " failed: " + e, e));
      } finally {
        round.fetcherEnded(LocalFileStatistics.moveFromThisThread(before));
      }
    }

    private Segment fetchWithRetries(MapOutputLocation location) throws IOException, InterruptedException {
      FetchFailure last = null;
      for (int attempt = 0; attempt <= settings.retries(); attempt++) {
        if (attempt > 0) {
          Thread.sleep(settings.backoffMs(attempt));
        }
        try {
          return fetcher.fetch(location, kept, this);
        } catch (FetchFailure e) {
          last = e;
        } finally {
          synchronized (this) {
            connection = null;
          }
        }
        if (round.stopping) {
          throw new InterruptedIOException("stopped");
        }
        count(last.error());
        LOG.warn("Fetching {} for partition {} of {} failed (try {} of {}, {}): {}", location, partition, jobId,
            attempt + 1, settings.retries() + 1, last.error(), last.getMessage());
        if (!last.retryable()) {
          break;
        }
      }
      if (last.losesOutput()) {
        List<Integer> lost = last.error() == ShuffleError.CONNECTION ? round.unfetchedAt(location)
            : List.of(location.mapIndex());
        throw new MapOutputLostException(location.host(), location.port(), lost,
            (last.retryable() ? "after " + (settings.retries() + 1) + " tries, " : "") + last.getMessage(), last);
      }
      throw new IOException("cannot fetch partition " + partition + " of " + location + " for " + jobId + ": "
          + last.getMessage(), last);
    }

    @Override
    public synchronized boolean opened(ShuffleConnection c) {
      connection = c;
      return !stopped;
    }

    @Override
    public void arrived(long bytes) {
      round.bytes.addAndGet(bytes);
    }

    /** Stops the fetcher: its try under way ends (its connection closes), its wait for a retry too. */
    void stop() {
      ShuffleConnection c;
      synchronized (this) {
        stopped = true;
        c = connection;
      }
      if (c != null) {
        c.close();
      }
      thread.interrupt();
    }
  }
}
