package io.vivace.shuffle.net;

import io.vivace.localdisk.LocalFileStatistics;
import io.vivace.localdisk.ScratchDir;
import io.vivace.localdisk.ScratchOutput;
import io.vivace.segment.FileSegment;
import io.vivace.segment.MemorySegment;
import io.vivace.segment.Segment;
import io.vivace.segment.SegmentCodec;
import io.vivace.shuffle.ShuffleMemory;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One try of fetching one map's partition: a {@code GET} to the executor that holds it
 * ({@link ShuffleConnection}), over the fetch thread's {@link KeptConnection} to that executor when
 * it has one (a request that connection, closed meanwhile, leaves unanswered goes again once, on a
 * new connection, within the same try), the answer checked (status, authentication, what it says it is), and
 * its stored bytes into a
 * {@link MemorySegment} when the shuffle budget takes them, else into a {@link FileSegment} of its
 * own scratch file. A try that fails leaves no file and no reservation behind. Failures of the
 * network or of the executor are {@link FetchFailure}s; those of this host (its local disk) are
 * other IOExceptions.
 */
final class SegmentFetcher {

  private static final Logger LOG = LoggerFactory.getLogger(SegmentFetcher.class);
  private static final int CHUNK = 64 * 1024;
  /** Error answers are short texts; more of one is not read. */
  private static final int ERROR_TEXT_LIMIT = 1024;
  /** Largest Java array, for segments kept on the heap. */
  private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

  /** What a fetch thread learns of a try under way. */
  interface Watch {
    /**
     * A connection the try is about to use, before it connects or sends a request over it: closing
     * it stops the try. False when the fetch is being stopped: the try then ends at once.
     */
    boolean opened(ShuffleConnection connection);

    /** {@code bytes} more of the answer arrived. */
    void arrived(long bytes);
  }

  private final String jobId;
  private final int partition;
  private final SegmentCodec codec;
  private final ShuffleMemory memory;
  private final ScratchDir scratch;
  private final byte[] key;
  private final FetchSettings settings;
  private final ClientTls tls;

  /** {@code tls}: null to fetch in clear. */
  SegmentFetcher(String jobId, int partition, SegmentCodec codec, ShuffleMemory memory, ScratchDir scratch,
                 byte[] key, FetchSettings settings, ClientTls tls) {
    this.jobId = jobId;
    this.partition = partition;
    this.codec = codec;
    this.memory = memory;
    this.scratch = scratch;
    this.key = key;
    this.settings = settings;
    this.tls = tls;
  }

  /**
   * The map's partition at {@code location}: null when it is empty.
   *
   * @throws FetchFailure the try failed on the network or the executor's side (or its connection was
   *     closed by a stop)
   * @throws IOException writing it to local disk failed
   */
  Segment fetch(MapOutputLocation location, KeptConnection kept, Watch watch) throws IOException {
    MapOutputRequest request = new MapOutputRequest(jobId, location.mapIndex(), location.attemptId(), partition);
    ShuffleConnection reused = kept.take(location.host(), location.port());
    if (reused != null) {
      try {
        return fetchOver(reused, request, kept, watch);
      } catch (ShuffleConnection.NoAnswerException e) {
        // the executor closed the idle connection (or a stop closed it): not a failed try
        LOG.debug("Fetching {} again on a new connection: {}", request, e.getMessage());
      }
    }
    ShuffleConnection connection = new ShuffleConnection();
    if (!watch.opened(connection)) {
      connection.close();
      throw FetchFailure.transientFailure(ShuffleError.IO_ERROR, "stopped", null);
    }
    try {
      connection.connect(location.host(), location.port(), settings.connectTimeoutMs(), settings.readTimeoutMs(), tls);
    } catch (SSLException e) {
      connection.close();
      if (!cutOff(e)) {
        // a certificate not trusted or not the host's, or a server that does not speak TLS: the
        // cluster's configuration, which neither a retry nor a new run of the map mends
        throw FetchFailure.fatal(ShuffleError.CONNECTION, "TLS (mapreduce.shuffle.ssl.enabled) with the executor"
            + " failed; see the cluster's ssl-server.xml and ssl-client.xml: " + describe(e));
      }
      throw FetchFailure.transientFailure(ShuffleError.CONNECTION, "TLS handshake cut off: " + describe(e), e);
    } catch (IOException e) {
      connection.close();
      throw FetchFailure.transientFailure(ShuffleError.CONNECTION, "cannot connect: " + describe(e), e);
    }
    return fetchOver(connection, request, kept, watch);
  }

  /**
   * One request over {@code connection}, kept in {@code kept} when its answer was read in full and
   * the executor leaves it open, else closed.
   *
   * @throws ShuffleConnection.NoAnswerException the connection, used before, ended before the answer
   */
  private Segment fetchOver(ShuffleConnection connection, MapOutputRequest request, KeptConnection kept, Watch watch)
      throws IOException {
    boolean read = false;
    try {
      if (!watch.opened(connection)) {
        throw FetchFailure.transientFailure(ShuffleError.IO_ERROR, "stopped", null);
      }
      // each request a stamp of its own, a request sent again too: the executor accepts a stamp once
      RequestStamp stamp = RequestStamp.now();
      String mac = ShuffleAuth.requestMac(key, request, stamp);
      try {
        connection.get(request.target(), Map.of(ShuffleProtocol.HEADER_REQUEST_MAC, mac,
            ShuffleProtocol.HEADER_SENT_AT, Long.toString(stamp.sentAtMs()), ShuffleProtocol.HEADER_NONCE, stamp.nonce()));
      } catch (ShuffleConnection.NoAnswerException e) {
        throw e;
      } catch (SocketTimeoutException e) {
        throw FetchFailure.transientFailure(ShuffleError.IO_ERROR, "no answer for " + settings.readTimeoutMs()
            + " ms (mapreduce.reduce.shuffle.read.timeout)", e);
      } catch (IOException e) {
        throw FetchFailure.transientFailure(ShuffleError.IO_ERROR, "no answer: " + describe(e), e);
      }
      long length = checkAnswer(connection, request, mac);
      Segment segment = null;
      if (length > 0) {
        InputStream body = connection.body();
        segment = length <= MAX_ARRAY && memory.tryReserve(length)
            ? toMemory(body, (int) length, watch)
            : toFile(body, length, request.mapIndex(), watch);
      }
      read = true;
      return segment;
    } finally {
      if (read) {
        kept.keep(connection);
      } else {
        connection.close();
      }
    }
  }

  /** Whether a TLS failure is the connection's end (the executor gone) rather than TLS's refusal. */
  private static boolean cutOff(SSLException e) {
    for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
      if (t instanceof EOFException || t instanceof SocketException) {
        return true;
      }
    }
    return false;
  }

  /** The answer's stored length, once its status and headers are what {@code request} asked for. */
  private long checkAnswer(ShuffleConnection answer, MapOutputRequest request, String mac) throws IOException {
    int status = answer.status();
    if (status != 200) {
      String text = errorText(answer);
      switch (status) {
        case 404:
          throw FetchFailure.gone("the executor does not hold it (404: " + text + ")");
        case 403:
          throw FetchFailure.fatal(ShuffleError.IO_ERROR, "the executor refused the request (403: " + text
              + "): the job's shuffle key differs from the executor's, or their clocks are more than "
              + ReplayGuard.WINDOW_MS / 60_000 + " minutes apart");
        case 400:
        case 405:
          throw FetchFailure.fatal(ShuffleError.IO_ERROR, "the executor did not understand the request ("
              + status + ": " + text + ")");
        default:
          throw FetchFailure.transientFailure(ShuffleError.IO_ERROR, "the executor answered " + status + ": " + text, null);
      }
    }
    long length = number(answer, ShuffleProtocol.HEADER_LENGTH, ShuffleError.WRONG_LENGTH);
    long contentLength = number(answer, "Content-Length", ShuffleError.WRONG_LENGTH);
    if (length < 0 || length != contentLength) {
      throw FetchFailure.transientFailure(ShuffleError.WRONG_LENGTH, "the answer announces " + length
          + " stored bytes in a body of " + contentLength + " bytes", null);
    }
    String compressedText = String.valueOf(answer.header(ShuffleProtocol.HEADER_COMPRESSED));
    if (!compressedText.equals("true") && !compressedText.equals("false")) {
      throw FetchFailure.transientFailure(ShuffleError.IO_ERROR, "the answer's "
          + ShuffleProtocol.HEADER_COMPRESSED + " is " + compressedText, null);
    }
    boolean compressed = compressedText.equals("true");
    String answerMac = answer.header(ShuffleProtocol.HEADER_ANSWER_MAC);
    if (!ShuffleAuth.matches(ShuffleAuth.answerMac(key, mac, length, compressed), answerMac)) {
      throw FetchFailure.fatal(ShuffleError.IO_ERROR, "the answer is not authenticated by the job's shuffle key ("
          + (answerMac == null ? "no " : "a wrong ") + ShuffleProtocol.HEADER_ANSWER_MAC + ")");
    }
    String job = answer.header(ShuffleProtocol.HEADER_JOB);
    String attempt = answer.header(ShuffleProtocol.HEADER_ATTEMPT);
    if (!request.jobId().equals(job) || !request.attemptId().equals(attempt)) {
      throw FetchFailure.transientFailure(ShuffleError.BAD_ID, "the answer is " + attempt + " of " + job, null);
    }
    long map = number(answer, ShuffleProtocol.HEADER_MAP, ShuffleError.BAD_ID);
    if (map != request.mapIndex()) {
      throw FetchFailure.transientFailure(ShuffleError.WRONG_MAP, "the answer is map " + map + "'s", null);
    }
    long reduce = number(answer, ShuffleProtocol.HEADER_PARTITION, ShuffleError.BAD_ID);
    if (reduce != request.partition()) {
      throw FetchFailure.transientFailure(ShuffleError.WRONG_REDUCE, "the answer is partition " + reduce + "'s", null);
    }
    if (length > 0 && compressed != codec.compresses()) {
      throw FetchFailure.fatal(ShuffleError.IO_ERROR, "the executor stores it " + (compressed ? "compressed" : "raw")
          + " but this job's map output codec is " + codec);
    }
    return length;
  }

  private static long number(ShuffleConnection answer, String name, ShuffleError error) throws FetchFailure {
    String text = answer.header(name);
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw FetchFailure.transientFailure(error, "the answer's " + name + " is "
          + (text == null ? "missing" : "\"" + text + "\""), null);
    }
  }

  private Segment toMemory(InputStream body, int length, Watch watch) throws IOException {
    boolean kept = false;
    try {
      byte[] data = new byte[length];
      int got = 0;
      while (got < length) {
        int n = read(body, data, got, Math.min(CHUNK, length - got), got, length);
        got += n;
        watch.arrived(n);
      }
      kept = true;
      return new MemorySegment(data, 0, length, memory::release, codec);
    } finally {
      if (!kept) {
        memory.release(length);
      }
    }
  }

  private Segment toFile(InputStream body, long length, int mapIndex, Watch watch) throws IOException {
    ScratchOutput out = scratch.create("map_" + mapIndex + ".out", length);
    boolean kept = false;
    try {
      byte[] buffer = new byte[CHUNK];
      long got = 0;
      while (got < length) {
        int n = read(body, buffer, 0, (int) Math.min(CHUNK, length - got), got, length);
        out.write(buffer, 0, n);
        got += n;
        watch.arrived(n);
      }
      out.close();
      LocalFileStatistics.written(length);
      kept = true;
      return new FileSegment(out.file(), 0, length, new AtomicInteger(1), codec);
    } finally {
      if (!kept) {
        try {
          out.close();
        } catch (IOException ignored) {
          // the file goes anyway
        }
        out.file().delete();
      }
    }
  }

  /** Reads some of the body; a body that ends, fails or stalls early is the network's failure. */
  private int read(InputStream body, byte[] into, int offset, int length, long got, long expected)
      throws FetchFailure {
    int n;
    try {
      n = body.read(into, offset, length);
    } catch (SocketTimeoutException e) {
      throw FetchFailure.transientFailure(ShuffleError.IO_ERROR, "no bytes for " + settings.readTimeoutMs()
          + " ms after " + got + " of " + expected + " (mapreduce.reduce.shuffle.read.timeout)", e);
    } catch (IOException e) {
      throw FetchFailure.transientFailure(ShuffleError.IO_ERROR, "the answer failed after " + got + " of "
          + expected + " bytes: " + describe(e), e);
    }
    if (n < 0) {
      throw FetchFailure.transientFailure(ShuffleError.IO_ERROR, "the answer ended after " + got + " of "
          + expected + " bytes", null);
    }
    return n;
  }

  /** The text of an error answer, at most {@link #ERROR_TEXT_LIMIT} bytes of it. */
  private static String errorText(ShuffleConnection answer) {
    try {
      long length = Long.parseLong(String.valueOf(answer.header("Content-Length")));
      byte[] text = answer.body().readNBytes((int) Math.min(Math.max(length, 0), ERROR_TEXT_LIMIT));
      return new String(text, StandardCharsets.UTF_8).strip();
    } catch (IOException | NumberFormatException e) {
      return "(no text: " + e + ")";
    }
  }

  /** An exception's message, with its class. */
  static String describe(Throwable e) {
    String message = e.getMessage();
    return message == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + message;
  }
}
