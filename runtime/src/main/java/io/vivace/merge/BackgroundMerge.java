package io.vivace.merge;

import io.vivace.localdisk.LocalFileStatistics;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.apache.hadoop.io.DataInputBuffer;

/**
 * Runs a merge on a thread of its own and hands its records to the consuming (reduce) thread in
 * batches, so that reading and merging the segments overlaps with the reducer and its output
 * format. A few batches circulate between the two threads; records are copied once, into them.
 * The merge thread's local file reads are charged to the consumer's thread when it closes, so
 * the task's {@code FILE_BYTES_READ} is the same as without the thread.
 */
final class BackgroundMerge {

  private static final int BATCH_BYTES = 1 << 20;
  private static final int BATCHES = 4;

  /** Records copied out of the merge: bytes back to back, and per record key start, key and value length. */
  private static final class Batch {
    byte[] data = new byte[BATCH_BYTES];
    int[] records = new int[3 * 8192];
    int count;
    int used;
    boolean last;
    Throwable failure;

    void clear() {
      count = 0;
      used = 0;
      last = false;
    }

    boolean fits(int bytes) {
      return count == 0 || (used + bytes <= data.length && 3 * (count + 1) <= records.length);
    }

    void add(DataInputBuffer key, DataInputBuffer value) {
      int keyLength = key.getLength() - key.getPosition();
      int valueLength = value.getLength() - value.getPosition();
      if (used + keyLength + valueLength > data.length) { // a record larger than a batch
        data = Arrays.copyOf(data, used + keyLength + valueLength);
      }
      if (3 * (count + 1) > records.length) {
        records = Arrays.copyOf(records, records.length * 2);
      }
      System.arraycopy(key.getData(), key.getPosition(), data, used, keyLength);
      System.arraycopy(value.getData(), value.getPosition(), data, used + keyLength, valueLength);
      records[3 * count] = used;
      records[3 * count + 1] = keyLength;
      records[3 * count + 2] = valueLength;
      used += keyLength + valueLength;
      count++;
    }
  }

  private final MergingIterator source;
  private final BlockingQueue<Batch> full = new ArrayBlockingQueue<>(BATCHES + 1);
  private final BlockingQueue<Batch> free = new ArrayBlockingQueue<>(BATCHES);
  private final Thread thread;
  private volatile boolean stopping;
  /** The merge thread's local file I/O, moved to the consumer's thread on close. */
  private volatile long[] reads;
  private final DataInputBuffer key = new DataInputBuffer();
  private final DataInputBuffer value = new DataInputBuffer();
  private Batch current;
  private int next;
  private boolean done;
  private boolean closed;

  /** Starts merging {@code source} on a new thread named {@code name}. */
  BackgroundMerge(MergingIterator source, String name) {
    this.source = source;
    for (int i = 0; i < BATCHES; i++) {
      free.add(new Batch());
    }
    this.thread = HelperThreads.start(this::produce, name);
  }

  private void produce() {
    long[] before = LocalFileStatistics.ofThisThread();
    Batch batch = null;
    try {
      batch = free.take();
      batch.clear();
      while (!stopping && source.next()) {
        DataInputBuffer k = source.getKey();
        DataInputBuffer v = source.getValue();
        if (!batch.fits(k.getLength() - k.getPosition() + v.getLength() - v.getPosition())) {
          full.put(batch);
          batch = free.take();
          batch.clear();
        }
        batch.add(k, v);
      }
      batch.last = true;
      full.put(batch);
    } catch (Throwable t) {
      if (!stopping) {
        Batch failed = new Batch();
        failed.failure = t;
        full.offer(failed); // room: one more slot than batches
      }
    } finally {
      reads = LocalFileStatistics.moveFromThisThread(before);
    }
  }

  boolean next() throws IOException {
    while (current == null || next >= current.count) {
      if (done) {
        return false;
      }
      if (current != null) {
        if (current.last) {
          done = true;
          return false;
        }
        free.add(current);
      }
      try {
        current = full.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting for merged records");
      }
      next = 0;
      if (current.failure != null) {
        done = true;
        Throwable t = current.failure;
        throw t instanceof IOException io ? io : new IOException("merge failed: " + t, t);
      }
    }
    int r = 3 * next++;
    int start = current.records[r];
    int keyLength = current.records[r + 1];
    key.reset(current.data, start, keyLength);
    value.reset(current.data, start + keyLength, current.records[r + 2]);
    return true;
  }

  DataInputBuffer key() {
    return key;
  }

  DataInputBuffer value() {
    return value;
  }

  /** Stops the merge thread, waits for it, and charges its file reads to the calling thread. */
  void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    stopping = true;
    thread.interrupt();
    HelperThreads.join(thread);
    if (reads != null) {
      LocalFileStatistics.charge(reads);
    }
    source.close();
  }
}
