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
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
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
      direct = OutputWriters.oldApiDirect(attempt, reporter.frameworkCounter(TaskCounter.MAP_OUTPUT_RECORDS));
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
    private final InputTracker tracker;
    private boolean closed;

    TrackedReader(RecordReader<K, V> real, TaskReporter reporter, FileSystemBytes fileBytes) {
      this.real = real;
      this.reporter = reporter;
      this.tracker = new InputTracker(reporter, fileBytes);
    }

    @Override
    public boolean next(K key, V value) throws IOException {
      reporter.checkKilledInOldApi();
      long before = tracker.beforeRead();
      boolean more = real.next(key, value);
      tracker.afterRead(before);
      if (more) {
        try {
          tracker.recordRead(real::getProgress);
        } catch (IOException | RuntimeException e) {
          throw e;
        } catch (Exception e) {
          throw new IOException(e);
        }
      }
      return more;
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
