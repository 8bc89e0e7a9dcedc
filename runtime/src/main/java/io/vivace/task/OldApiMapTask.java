package io.vivace.task;

import io.vivace.counters.FileSystemBytes;
import io.vivace.shuffle.MapOutput;
import io.vivace.sort.MapOutputBuffer;
import java.io.IOException;
import org.apache.hadoop.mapred.FileSplit;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapRunnable;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.RecordReader;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter;
import org.apache.hadoop.util.ReflectionUtils;

/** A map attempt of a job written against the old {@code mapred} API (MapRunnable, OutputCollector). */
final class OldApiMapTask {

  private OldApiMapTask() {
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static MapOutput run(TaskAttempt attempt, InputSplit split) throws Exception {
    JobConf job = attempt.conf();
    TaskReporter reporter = attempt.reporter();
    if (split instanceof FileSplit fileSplit) {
      job.set(MRJobConfig.MAP_INPUT_FILE, fileSplit.getPath().toString());
      job.setLong(MRJobConfig.MAP_INPUT_START, fileSplit.getStart());
      job.setLong(MRJobConfig.MAP_INPUT_PATH, fileSplit.getLength());
    }
    reporter.setInputSplit(split);
    attempt.setupOutput();
    FileSystemBytes fileBytes = split instanceof FileSplit fileSplit
        ? FileSystemBytes.of(fileSplit.getPath(), job) : null;
    TrackedReader in = new TrackedReader(job.getInputFormat().getRecordReader(split, job, reporter),
        reporter, fileBytes);
    MapOutputBuffer buffer = null;
    OutputCollector collector;
    OutputWriters.OldApiDirect direct = null;
    if (attempt.env().reduces() == 0) {
      direct = OutputWriters.oldApiDirect(attempt, reporter.getCounter(TaskCounter.MAP_OUTPUT_RECORDS));
      collector = direct;
    } else {
      buffer = SortBufferFactory.create(attempt);
      collector = new OutputWriters.OldApiPartitioned(buffer, attempt);
    }
    try {
      MapRunnable runner = ReflectionUtils.newInstance(job.getMapRunnerClass(), job);
      runner.run(in, collector, reporter);
      in.close();
      if (direct != null) {
        direct.close();
      }
      return buffer == null ? null : buffer.finish();
    } catch (Exception | Error e) {
      try {
        in.close();
      } catch (IOException | RuntimeException ignored) {
        // the attempt is failing already
      }
      if (direct != null) {
        direct.closeQuietly();
      }
      if (buffer != null) {
        buffer.abort();
      }
      throw e;
    }
  }

  /** Counts input records and bytes, reports progress and stops a killed attempt. */
  private static final class TrackedReader<K, V> implements RecordReader<K, V> {
    private final RecordReader<K, V> real;
    private final TaskReporter reporter;
    private final Counter inputRecords;
    private final Counter bytesRead;
    private final FileSystemBytes fileBytes;
    private boolean closed;

    TrackedReader(RecordReader<K, V> real, TaskReporter reporter, FileSystemBytes fileBytes) {
      this.real = real;
      this.reporter = reporter;
      this.inputRecords = reporter.getCounter(TaskCounter.MAP_INPUT_RECORDS);
      this.bytesRead = reporter.getCounter(FileInputFormatCounter.BYTES_READ);
      this.fileBytes = fileBytes;
    }

    @Override
    public boolean next(K key, V value) throws IOException {
      try {
        reporter.checkKilled();
      } catch (InterruptedException e) {
        throw new java.io.InterruptedIOException(e.getMessage());
      }
      long before = readSoFar();
      boolean more = real.next(key, value);
      bytesRead.increment(readSoFar() - before);
      if (more) {
        inputRecords.increment(1);
        if ((inputRecords.getValue() & 0xFF) == 0) {
          reporter.setProgress(real.getProgress());
        }
      }
      return more;
    }

    private long readSoFar() {
      return fileBytes == null ? 0 : fileBytes.read();
    }

    @Override
    public K createKey() {
      return real.createKey();
    }

    @Override
    public V createValue() {
      return real.createValue();
    }

    @Override
    public long getPos() throws IOException {
      return real.getPos();
    }

    @Override
    public float getProgress() throws IOException {
      return real.getProgress();
    }

    @Override
    public void close() throws IOException {
      if (!closed) {
        closed = true;
        real.close();
      }
    }
  }
}
