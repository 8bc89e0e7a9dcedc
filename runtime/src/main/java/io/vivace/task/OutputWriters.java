package io.vivace.task;

import io.vivace.counters.FileSystemBytes;
import io.vivace.sort.MapOutputBuffer;
import java.io.IOException;
import java.io.InterruptedIOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormatCounter;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Where map and reduce tasks put their output: straight into the job's output format (reduce tasks
 * and map-only jobs, counting records and bytes written), or partitioned into the sort buffer.
 */
final class OutputWriters {

  private OutputWriters() {
  }

  /**
   * Records and bytes written through an output format; bytes are the file system bytes written
   * inside its calls (creating the file included), as Hadoop counts BYTES_WRITTEN.
   */
  private static final class OutputTracker {
    private final Counter records;
    private final Counter bytesWritten;
    private final FileSystemBytes fileBytes;

    OutputTracker(TaskAttempt attempt, Counter records) {
      String dir = attempt.conf().get(FileOutputFormat.OUTDIR);
      this.records = records;
      this.bytesWritten = attempt.reporter().frameworkCounter(FileOutputFormatCounter.BYTES_WRITTEN);
      this.fileBytes = dir == null ? null : FileSystemBytes.of(new Path(dir), attempt.conf());
    }

    long beforeWrite() {
      return fileBytes == null ? 0 : fileBytes.written();
    }

    void afterWrite(long before) {
      if (fileBytes != null) {
        bytesWritten.increment(fileBytes.written() - before);
      }
    }

    void recordWritten() {
      records.increment(1);
    }

    void addBytesWritten(long bytes) {
      bytesWritten.increment(bytes);
    }
  }

  /** The new-API output format's writer for the attempt, counted. */
  static <K, V> NewApiDirect<K, V> newApiDirect(TaskAttempt attempt, Counter records)
      throws IOException, InterruptedException, ClassNotFoundException {
    return newApiDirect(attempt, records, false);
  }

  /**
   * The new-API output format's writer for the attempt, counted; with {@code writeBehind}, its
   * writes made on a thread of their own where {@link WriteBehind} can.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static <K, V> NewApiDirect<K, V> newApiDirect(TaskAttempt attempt, Counter records, boolean writeBehind)
      throws IOException, InterruptedException, ClassNotFoundException {
    TaskAttemptContext context = attempt.newApiContext();
    org.apache.hadoop.mapreduce.OutputFormat format =
        ReflectionUtils.newInstance(context.getOutputFormatClass(), attempt.conf());
    OutputTracker tracker = new OutputTracker(attempt, records);
    long before = tracker.beforeWrite();
    RecordWriter<K, V> real = format.getRecordWriter(context);
    tracker.afterWrite(before);
    String dir = attempt.conf().get(FileOutputFormat.OUTDIR);
    WriteBehind<K, V> behind = writeBehind && dir != null
        ? WriteBehind.of(real, format.getClass().getName(), context.getOutputKeyClass(),
            context.getOutputValueClass(), new Path(dir), attempt.conf(), "vivace-output-" + attempt.idText())
        : null;
    return new NewApiDirect<>(real, attempt.reporter(), tracker, behind);
  }

  /** The old-API output format's writer for the attempt ({@code part-NNNNN}), counted. */
  static <K, V> OldApiDirect<K, V> oldApiDirect(TaskAttempt attempt, Counter records)
      throws IOException {
    JobConf job = attempt.conf();
    OutputTracker tracker = new OutputTracker(attempt, records);
    long before = tracker.beforeWrite();
    @SuppressWarnings("unchecked")
    org.apache.hadoop.mapred.RecordWriter<K, V> real = job.getOutputFormat().getRecordWriter(
        FileSystem.get(job), job, TaskNames.oldApiOutputName(attempt.partition()), attempt.reporter());
    tracker.afterWrite(before);
    return new OldApiDirect<>(real, attempt.reporter(), tracker);
  }

  /** New API: the output format's writer, counted. */
  static final class NewApiDirect<K, V> extends RecordWriter<K, V> {
    private final RecordWriter<K, V> real;
    private final TaskReporter reporter;
    private final OutputTracker tracker;
    /** Null where the writes are made on the task's thread. */
    private final WriteBehind<K, V> behind;

    private NewApiDirect(RecordWriter<K, V> real, TaskReporter reporter, OutputTracker tracker,
                         WriteBehind<K, V> behind) {
      this.real = real;
      this.reporter = reporter;
      this.tracker = tracker;
      this.behind = behind;
    }

    @Override
    public void write(K key, V value) throws IOException, InterruptedException {
      reporter.checkKilled();
      if (behind != null && behind.accept(key, value)) {
        tracker.recordWritten();
        return;
      }
      long before = tracker.beforeWrite();
      real.write(key, value);
      tracker.afterWrite(before);
      tracker.recordWritten();
    }

    @Override
    public void close(TaskAttemptContext context) throws IOException, InterruptedException {
      if (behind != null) {
        try {
          tracker.addBytesWritten(behind.finish());
        } catch (IOException | RuntimeException | Error e) {
          closeQuietly(context);
          throw e;
        }
      }
      long before = tracker.beforeWrite();
      real.close(context);
      tracker.afterWrite(before);
    }

    /** Closes the file of a failing attempt, keeping the failure's own exception. */
    void closeQuietly(TaskAttemptContext context) {
      if (behind != null) {
        behind.abandon();
      }
      try {
        real.close(context);
      } catch (Exception | LinkageError ignored) {
        // the attempt is failing already
      }
    }
  }

  /** Old API: the output format's writer behind an OutputCollector, counted. */
  static final class OldApiDirect<K, V> implements OutputCollector<K, V> {
    private final org.apache.hadoop.mapred.RecordWriter<K, V> real;
    private final TaskReporter reporter;
    private final OutputTracker tracker;

    private OldApiDirect(org.apache.hadoop.mapred.RecordWriter<K, V> real, TaskReporter reporter,
                         OutputTracker tracker) {
      this.real = real;
      this.reporter = reporter;
      this.tracker = tracker;
    }

    @Override
    public void collect(K key, V value) throws IOException {
      reporter.checkKilledInOldApi();
      long before = tracker.beforeWrite();
      real.write(key, value);
      tracker.afterWrite(before);
      tracker.recordWritten();
    }

    void close() throws IOException {
      long before = tracker.beforeWrite();
      real.close(reporter);
      tracker.afterWrite(before);
    }

    /** Closes the file of a failing attempt, keeping the failure's own exception. */
    void closeQuietly() {
      try {
        real.close(reporter);
      } catch (Exception | LinkageError ignored) {
        // the attempt is failing already
      }
    }
  }

  /** The job's partitioner, whichever API it is written for. */
  private interface PartitionFunction<K, V> {
    int partition(K key, V value, int partitions);
  }

  /**
   * Map output into the sort buffer: the type checks and partition range check of Hadoop's map
   * output collector. With one reducer the partitioner is not called: everything goes to 0.
   */
  private static final class Partitioning<K, V> {
    private final MapOutputBuffer<K, V> buffer;
    private final PartitionFunction<K, V> partitioner;
    private final int partitions;
    private final Class<?> keyClass;
    private final Class<?> valueClass;

    Partitioning(MapOutputBuffer<K, V> buffer, TaskAttempt attempt, PartitionFunction<K, V> partitioner) {
      this.buffer = buffer;
      this.partitioner = partitioner;
      this.partitions = attempt.env().reduces();
      this.keyClass = attempt.conf().getMapOutputKeyClass();
      this.valueClass = attempt.conf().getMapOutputValueClass();
    }

    void collect(K key, V value) throws IOException, InterruptedException {
      if (key.getClass() != keyClass) {
        throw new IOException("Type mismatch in key from map: expected " + keyClass.getName()
            + ", received " + key.getClass().getName());
      }
      if (value.getClass() != valueClass) {
        throw new IOException("Type mismatch in value from map: expected " + valueClass.getName()
            + ", received " + value.getClass().getName());
      }
      int p = partitions > 1 ? partitioner.partition(key, value, partitions) : 0;
      if (p < 0 || p >= partitions) {
        throw new IOException("Illegal partition for " + key + " (" + p + ")");
      }
      buffer.collect(key, value, p);
    }
  }

  /** New API: partitions map output into the sort buffer. */
  static final class NewApiPartitioned<K, V> extends RecordWriter<K, V> {
    private final Partitioning<K, V> partitioning;
    private final TaskReporter reporter;

    @SuppressWarnings("unchecked")
    NewApiPartitioned(MapOutputBuffer<K, V> buffer, TaskAttempt attempt) throws ClassNotFoundException {
      org.apache.hadoop.mapreduce.Partitioner<K, V> partitioner = attempt.env().reduces() > 1
          ? (org.apache.hadoop.mapreduce.Partitioner<K, V>) ReflectionUtils.newInstance(
              attempt.newApiContext().getPartitionerClass(), attempt.conf())
          : null;
      this.partitioning = new Partitioning<>(buffer, attempt,
          partitioner == null ? null : partitioner::getPartition);
      this.reporter = attempt.reporter();
    }

    @Override
    public void write(K key, V value) throws IOException, InterruptedException {
      reporter.checkKilled();
      partitioning.collect(key, value);
    }

    @Override
    public void close(TaskAttemptContext context) {
    }
  }

  /** Old API: partitions map output into the sort buffer. */
  static final class OldApiPartitioned<K, V> implements OutputCollector<K, V> {
    private final Partitioning<K, V> partitioning;
    private final TaskReporter reporter;

    @SuppressWarnings("unchecked")
    OldApiPartitioned(MapOutputBuffer<K, V> buffer, TaskAttempt attempt) {
      JobConf conf = attempt.conf();
      org.apache.hadoop.mapred.Partitioner<K, V> partitioner = attempt.env().reduces() > 1
          ? (org.apache.hadoop.mapred.Partitioner<K, V>) ReflectionUtils.newInstance(conf.getPartitionerClass(), conf)
          : null;
      this.partitioning = new Partitioning<>(buffer, attempt,
          partitioner == null ? null : partitioner::getPartition);
      this.reporter = attempt.reporter();
    }

    @Override
    public void collect(K key, V value) throws IOException {
      reporter.checkKilledInOldApi();
      try {
        partitioning.collect(key, value);
      } catch (InterruptedException e) {
        throw new InterruptedIOException(e.getMessage());
      }
    }
  }
}
