package io.vivace.task;

import io.vivace.counters.FileSystemBytes;
import io.vivace.localdisk.LocalFileStatistics;
import io.vivace.merge.HelperThreads;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.reflect.Array;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.RecordWriter;

/**
 * Hands a reduce's output records to a thread of its own, which makes the output format's {@code
 * write} calls, so that the reducer reads its next records while the last ones are checksummed and
 * written. Only for Hadoop's own file output formats writing to the local file system, whose
 * writers do nothing but write, and for keys and values of classes copied exactly by their own
 * setters (Text, BytesWritable, IntWritable, LongWritable, NullWritable): each record is copied into
 * objects of the batch, in order; one of another class ends the thread (after it has written what it
 * was given), and that record and the rest are written on the task's thread. The thread's local file
 * I/O is charged to the task's thread at the end, and the bytes its writes added to the file are
 * returned for BYTES_WRITTEN. A write that fails on the thread fails the next call made here.
 * Records the thread was given count as written when given (REDUCE_OUTPUT_RECORDS).
 */
final class WriteBehind<K, V> {

  /** Hadoop's output formats whose record writers only write to their file. */
  static final Set<String> OUTPUT_FORMATS = Set.of(
      "org.apache.hadoop.mapreduce.lib.output.TextOutputFormat",
      "org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat",
      "org.apache.hadoop.examples.terasort.TeraOutputFormat");

  private static final int RECORDS = 2048;
  private static final int BATCHES = 4;

  private static final class Batch<K, V> {
    final K[] keys;
    final V[] values;
    int count;
    boolean last;

    @SuppressWarnings("unchecked")
    Batch(Class<K> keyClass, Class<V> valueClass) {
      keys = (K[]) Array.newInstance(keyClass, RECORDS);
      values = (V[]) Array.newInstance(valueClass, RECORDS);
    }
  }

  private final RecordWriter<K, V> real;
  private final Class<K> keyClass;
  private final Class<V> valueClass;
  private final BiConsumer<K, K> copyKey;
  private final BiConsumer<V, V> copyValue;
  private final Path output;
  private final org.apache.hadoop.conf.Configuration conf;
  private final BlockingQueue<Batch<K, V>> full = new ArrayBlockingQueue<>(BATCHES + 1);
  private final BlockingQueue<Batch<K, V>> free = new ArrayBlockingQueue<>(BATCHES);
  private final Thread thread;
  private volatile Throwable failure;
  private volatile boolean stopping;
  /** Set by the thread as it ends: its local file I/O, and the bytes its writes added. */
  private volatile long[] io;
  private volatile long bytesWritten;
  private Batch<K, V> current;
  /** Whether the thread has ended and records go straight to the output format. */
  private boolean direct;

  private WriteBehind(RecordWriter<K, V> real, Class<K> keyClass, Class<V> valueClass,
                      BiConsumer<K, K> copyKey, BiConsumer<V, V> copyValue, Path output,
                      org.apache.hadoop.conf.Configuration conf, String name) {
    this.real = real;
    this.keyClass = keyClass;
    this.valueClass = valueClass;
    this.copyKey = copyKey;
    this.copyValue = copyValue;
    this.output = output;
    this.conf = conf;
    for (int i = 0; i < BATCHES; i++) {
      free.add(new Batch<>(keyClass, valueClass));
    }
    this.current = free.poll();
    this.thread = HelperThreads.start(this::drain, name);
  }

  /**
   * A write-behind for {@code real}, or null where the output format, the file system or the
   * classes are not ones it copies exactly.
   */
  @SuppressWarnings("unchecked")
  static <K, V> WriteBehind<K, V> of(RecordWriter<K, V> real, String outputFormat, Class<?> keyClass,
                                     Class<?> valueClass, Path output,
                                     org.apache.hadoop.conf.Configuration conf, String name) {
    BiConsumer<Object, Object> copyKey = copier(keyClass);
    BiConsumer<Object, Object> copyValue = copier(valueClass);
    if (!OUTPUT_FORMATS.contains(outputFormat) || copyKey == null || copyValue == null || output == null) {
      return null;
    }
    try {
      if (!"file".equals(output.getFileSystem(conf).getScheme())) {
        return null;
      }
    } catch (IOException e) {
      return null;
    }
    return new WriteBehind<>(real, (Class<K>) keyClass, (Class<V>) valueClass,
        (BiConsumer<K, K>) (BiConsumer<?, ?>) copyKey, (BiConsumer<V, V>) (BiConsumer<?, ?>) copyValue,
        output, conf, name);
  }

  /** How an object of exactly {@code type} is copied into another: its own setter; null if unknown. */
  private static BiConsumer<Object, Object> copier(Class<?> type) {
    if (type == Text.class) {
      return (from, to) -> ((Text) to).set((Text) from);
    }
    if (type == BytesWritable.class) {
      return (from, to) -> ((BytesWritable) to).set((BytesWritable) from);
    }
    if (type == IntWritable.class) {
      return (from, to) -> ((IntWritable) to).set(((IntWritable) from).get());
    }
    if (type == LongWritable.class) {
      return (from, to) -> ((LongWritable) to).set(((LongWritable) from).get());
    }
    if (type == NullWritable.class) {
      return (from, to) -> { };
    }
    return null;
  }

  /** A new object of one of the classes {@link #copier} knows; NullWritable's one instance. */
  @SuppressWarnings("unchecked")
  private static <T> T newInstance(Class<T> type) {
    if (type == Text.class) {
      return (T) new Text();
    }
    if (type == BytesWritable.class) {
      return (T) new BytesWritable();
    }
    if (type == IntWritable.class) {
      return (T) new IntWritable();
    }
    if (type == LongWritable.class) {
      return (T) new LongWritable();
    }
    return (T) NullWritable.get();
  }

  /**
   * Takes a copy of {@code key} and {@code value} for the thread; false where the caller must write
   * them itself: once a record of another class has ended the thread, and from then on.
   */
  boolean accept(K key, V value) throws IOException {
    if (direct) {
      return false;
    }
    if (key == null || value == null || key.getClass() != keyClass || value.getClass() != valueClass) {
      finishThread();
      direct = true;
      return false;
    }
    int i = current.count;
    if (current.keys[i] == null) {
      current.keys[i] = newInstance(keyClass);
      current.values[i] = newInstance(valueClass);
    }
    copyKey.accept(key, current.keys[i]);
    copyValue.accept(value, current.values[i]);
    if (++current.count == RECORDS) {
      handOver(false);
    }
    return true;
  }

  private void handOver(boolean last) throws IOException {
    current.last = last;
    try {
      full.put(current);
      current = null;
      if (!last) {
        while (current == null) {
          rethrowFailure();
          current = free.poll(50, TimeUnit.MILLISECONDS);
        }
        current.count = 0;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while handing records to the output thread");
    }
    rethrowFailure();
  }

  private void rethrowFailure() throws IOException {
    Throwable t = failure;
    if (t != null) {
      throw t instanceof IOException io ? io : new IOException("writing the reduce's output failed: " + t, t);
    }
  }

  /** The thread: writes each batch's records in order until the last batch or a failure. */
  private void drain() {
    long[] before = LocalFileStatistics.ofThisThread();
    FileSystemBytes meter = FileSystemBytes.of(output, conf);
    long startBytes = meter.written();
    try {
      while (true) {
        Batch<K, V> batch = full.take();
        for (int i = 0; i < batch.count && !stopping; i++) {
          real.write(batch.keys[i], batch.values[i]);
        }
        if (batch.last || stopping) {
          break;
        }
        free.add(batch);
      }
    } catch (Throwable t) {
      failure = t;
    } finally {
      bytesWritten = meter.written() - startBytes;
      io = LocalFileStatistics.moveFromThisThread(before);
    }
  }

  /** Hands over the records not yet handed, waits for the thread and charges its I/O here. */
  private void finishThread() throws IOException {
    handOver(true);
    joinThread();
    rethrowFailure();
  }

  private void joinThread() {
    HelperThreads.join(thread);
    if (io != null) {
      LocalFileStatistics.charge(io);
      io = null;
    }
  }

  /**
   * Writes what is left and ends the thread, before the output format is closed; returns the bytes
   * the thread's writes added to the output.
   */
  long finish() throws IOException {
    if (!direct) {
      finishThread();
      direct = true;
    }
    return bytesWritten;
  }

  /** Ends the thread of a failing attempt without writing what is left. */
  void abandon() {
    if (direct) {
      return;
    }
    direct = true;
    stopping = true;
    Batch<K, V> end = current != null ? current : new Batch<>(keyClass, valueClass);
    end.count = 0;
    end.last = true;
    full.offer(end); // room: one more slot than batches
    joinThread();
  }
}
