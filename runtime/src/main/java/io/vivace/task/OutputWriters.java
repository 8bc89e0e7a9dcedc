package io.vivace.task;

import io.vivace.counters.FileSystemBytes;
import io.vivace.sort.MapOutputBuffer;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
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

  /** New API: the output format's writer, counted. */
  static final class NewApiDirect<K, V> extends RecordWriter<K, V> {
    private final RecordWriter<K, V> real;
    private final TaskReporter reporter;
    private final Counter records;
    private final Counter bytesWritten;
    private final FileSystemBytes fileBytes;

    NewApiDirect(RecordWriter<K, V> real, TaskReporter reporter, Counter records, Configuration conf) {
      this.real = real;
      this.reporter = reporter;
      this.records = records;
      this.bytesWritten = reporter.getCounter(FileOutputFormatCounter.BYTES_WRITTEN);
      this.fileBytes = outputBytes(conf);
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
  }

  /** Old API: the output format's writer behind an OutputCollector, counted. */
  static final class OldApiDirect<K, V> implements OutputCollector<K, V> {
    private final org.apache.hadoop.mapred.RecordWriter<K, V> real;
    private final TaskReporter reporter;
    private final Counter records;
    private final Counter bytesWritten;
    private final FileSystemBytes fileBytes;

    OldApiDirect(org.apache.hadoop.mapred.RecordWriter<K, V> real, TaskReporter reporter,
                 Counter records, Configuration conf) {
      this.real = real;
      this.reporter = reporter;
      this.records = records;
      this.bytesWritten = reporter.getCounter(FileOutputFormatCounter.BYTES_WRITTEN);
      this.fileBytes = outputBytes(conf);
    }

    @Override
    public void collect(K key, V value) throws IOException {
      try {
        reporter.checkKilled();
      } catch (InterruptedException e) {
        throw new java.io.InterruptedIOException(e.getMessage());
      }
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
      try {
        reporter.checkKilled();
        checkTypes(key, value, keyClass, valueClass);
        int p = partitioner == null ? 0
            : checkPartition(key, partitioner.getPartition(key, value, partitions), partitions);
        buffer.collect(key, value, p);
      } catch (InterruptedException e) {
        throw new java.io.InterruptedIOException(e.getMessage());
      }
    }
  }
}
