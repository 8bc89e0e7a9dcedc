package io.vivace.task;

import io.vivace.counters.FileSystemBytes;
import io.vivace.sort.MapOutputBuffer;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormatCounter;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Where map and reduce tasks put their output: straight into the job's output format (reduce tasks
 * and map-only jobs, counting records and bytes written), or partitioned into the sort buffer.
 */
final class OutputWriters {

  private OutputWriters() {
  }

  /** Measures the bytes the job's output format writes, as Hadoop's BYTES_WRITTEN counter. */
  static FileSystemBytes outputBytes(Configuration conf) {
    String dir = conf.get(org.apache.hadoop.mapreduce.lib.output.FileOutputFormat.OUTDIR);
    return dir == null ? null : FileSystemBytes.of(new Path(dir), conf);
  }

  private static long written(FileSystemBytes bytes) {
    return bytes == null ? 0 : bytes.written();
  }

  /**
   * The new-API output format's writer for the attempt, counted; bytes written while the format
   * creates the file (headers) count too, as in Hadoop.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static <K, V> NewApiDirect<K, V> newApiDirect(TaskAttempt attempt, Counter records)
      throws IOException, InterruptedException, ClassNotFoundException {
    TaskAttemptContext context = attempt.newApiContext();
    org.apache.hadoop.mapreduce.OutputFormat format =
        ReflectionUtils.newInstance(context.getOutputFormatClass(), attempt.conf());
    FileSystemBytes fileBytes = outputBytes(attempt.conf());
    long before = written(fileBytes);
    RecordWriter<K, V> real = format.getRecordWriter(context);
    Counter bytesWritten = attempt.reporter().getCounter(FileOutputFormatCounter.BYTES_WRITTEN);
    bytesWritten.increment(written(fileBytes) - before);
    return new NewApiDirect<>(real, attempt.reporter(), records, bytesWritten, fileBytes);
  }

  /** The old-API output format's writer for the attempt ({@code part-NNNNN}), counted. */
  @SuppressWarnings("unchecked")
  static <K, V> OldApiDirect<K, V> oldApiDirect(TaskAttempt attempt, Counter records)
      throws IOException {
    JobConf job = attempt.conf();
    FileSystemBytes fileBytes = outputBytes(job);
    long before = written(fileBytes);
    org.apache.hadoop.mapred.RecordWriter<K, V> real = job.getOutputFormat().getRecordWriter(
        FileSystem.get(job), job, TaskNames.oldApiOutputName(attempt.partition()), attempt.reporter());
    Counter bytesWritten = attempt.reporter().getCounter(FileOutputFormatCounter.BYTES_WRITTEN);
    bytesWritten.increment(written(fileBytes) - before);
    return new OldApiDirect<>(real, attempt.reporter(), records, bytesWritten, fileBytes);
  }

  /** New API: the output format's writer, counted. */
  static final class NewApiDirect<K, V> extends RecordWriter<K, V> {
    private final RecordWriter<K, V> real;
    private final TaskReporter reporter;
    private final Counter records;
    private final Counter bytesWritten;
    private final FileSystemBytes fileBytes;

    private NewApiDirect(RecordWriter<K, V> real, TaskReporter reporter, Counter records,
                         Counter bytesWritten, FileSystemBytes fileBytes) {
      this.real = real;
      this.reporter = reporter;
      this.records = records;
      this.bytesWritten = bytesWritten;
      this.fileBytes = fileBytes;
    }

    @Override
    public void write(K key, V value) throws IOException, InterruptedException {
      reporter.checkKilled();
      long before = written(fileBytes);
      real.write(key, value);
      bytesWritten.increment(written(fileBytes) - before);
      records.increment(1);
    }

    @Override
    public void close(TaskAttemptContext context) throws IOException, InterruptedException {
      long before = written(fileBytes);
      real.close(context);
      bytesWritten.increment(written(fileBytes) - before);
    }

    /** Closes the file of a failing attempt, keeping the failure's own exception. */
    void closeQuietly(TaskAttemptContext context) {
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
    private final Counter records;
    private final Counter bytesWritten;
    private final FileSystemBytes fileBytes;

    private OldApiDirect(org.apache.hadoop.mapred.RecordWriter<K, V> real, TaskReporter reporter,
                         Counter records, Counter bytesWritten, FileSystemBytes fileBytes) {
      this.real = real;
      this.reporter = reporter;
      this.records = records;
      this.bytesWritten = bytesWritten;
      this.fileBytes = fileBytes;
    }

    @Override
    public void collect(K key, V value) throws IOException {
      reporter.checkKilledInOldApi();
      long before = written(fileBytes);
      real.write(key, value);
      bytesWritten.increment(written(fileBytes) - before);
      records.increment(1);
    }

    void close() throws IOException {
      long before = written(fileBytes);
      real.close(reporter);
      bytesWritten.increment(written(fileBytes) - before);
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

  /** Checks the key and value types the way Hadoop's map output collector does. */
  static void checkTypes(Object key, Object value, Class<?> keyClass, Class<?> valueClass)
      throws IOException {
    if (key.getClass() != keyClass) {
      throw new IOException("Type mismatch in key from map: expected " + keyClass.getName()
          + ", received " + key.getClass().getName());
    }
    if (value.getClass() != valueClass) {
      throw new IOException("Type mismatch in value from map: expected " + valueClass.getName()
          + ", received " + value.getClass().getName());
    }
  }

  static int checkPartition(Object key, int partition, int partitions) throws IOException {
    if (partition < 0 || partition >= partitions) {
      throw new IOException("Illegal partition for " + key + " (" + partition + ")");
    }
    return partition;
  }

  /** New API: partitions map output into the sort buffer. One reducer means partition 0 always. */
  static final class NewApiPartitioned<K, V> extends RecordWriter<K, V> {
    private final MapOutputBuffer<K, V> buffer;
    private final Partitioner<K, V> partitioner;
    private final int partitions;
    private final Class<?> keyClass;
    private final Class<?> valueClass;
    private final TaskReporter reporter;

    @SuppressWarnings("unchecked")
    NewApiPartitioned(MapOutputBuffer<K, V> buffer, TaskAttempt attempt) throws ClassNotFoundException {
      this.buffer = buffer;
      this.partitions = attempt.env().reduces();
      this.partitioner = partitions > 1
          ? (Partitioner<K, V>) ReflectionUtils.newInstance(attempt.newApiContext().getPartitionerClass(),
              attempt.conf())
          : null;
      this.keyClass = attempt.conf().getMapOutputKeyClass();
      this.valueClass = attempt.conf().getMapOutputValueClass();
      this.reporter = attempt.reporter();
    }

    @Override
    public void write(K key, V value) throws IOException, InterruptedException {
      reporter.checkKilled();
      checkTypes(key, value, keyClass, valueClass);
      int p = partitioner == null ? 0
          : checkPartition(key, partitioner.getPartition(key, value, partitions), partitions);
      buffer.collect(key, value, p);
    }

    @Override
    public void close(TaskAttemptContext context) {
    }
  }

  /** Old API: partitions map output into the sort buffer. */
  static final class OldApiPartitioned<K, V> implements OutputCollector<K, V> {
    private final MapOutputBuffer<K, V> buffer;
    private final org.apache.hadoop.mapred.Partitioner<K, V> partitioner;
    private final int partitions;
    private final Class<?> keyClass;
    private final Class<?> valueClass;
    private final TaskReporter reporter;

    @SuppressWarnings("unchecked")
    OldApiPartitioned(MapOutputBuffer<K, V> buffer, TaskAttempt attempt) {
      this.buffer = buffer;
      this.partitions = attempt.env().reduces();
      JobConf conf = attempt.conf();
      this.partitioner = partitions > 1
          ? (org.apache.hadoop.mapred.Partitioner<K, V>) ReflectionUtils.newInstance(conf.getPartitionerClass(), conf)
          : null;
      this.keyClass = conf.getMapOutputKeyClass();
      this.valueClass = conf.getMapOutputValueClass();
      this.reporter = attempt.reporter();
    }

    @Override
    public void collect(K key, V value) throws IOException {
      reporter.checkKilledInOldApi();
      checkTypes(key, value, keyClass, valueClass);
      int p = partitioner == null ? 0
          : checkPartition(key, partitioner.getPartition(key, value, partitions), partitions);
      try {
        buffer.collect(key, value, p);
      } catch (InterruptedException e) {
        throw new java.io.InterruptedIOException(e.getMessage());
      }
    }
  }
}
