package io.vivace.task;

import io.vivace.counters.FileSystemBytes;
import io.vivace.shuffle.MapOutput;
import io.vivace.sort.MapOutputBuffer;
import java.io.IOException;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.map.WrappedMapper;
import org.apache.hadoop.mapreduce.task.MapContextImpl;
import org.apache.hadoop.util.ReflectionUtils;

/** A map attempt of a job written against the new {@code mapreduce} API. */
final class NewApiMapTask {

  private NewApiMapTask() {
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static MapOutput run(TaskAttempt attempt, InputSplit split) throws Exception {
    JobConf conf = attempt.conf();
    TaskAttemptContext context = attempt.newApiContext();
    TaskReporter reporter = attempt.reporter();
    attempt.setupOutput();
    InputFormat inputFormat = ReflectionUtils.newInstance(context.getInputFormatClass(), conf);
    Mapper mapper = ReflectionUtils.newInstance(context.getMapperClass(), conf);
    TrackedReader reader = new TrackedReader(inputFormat.createRecordReader(split, context), reporter,
        split instanceof FileSplit fileSplit ? FileSystemBytes.of(fileSplit.getPath(), conf) : null);
    MapOutputBuffer buffer = null;
    OutputWriters.NewApiDirect direct = null;
    RecordWriter writer;
    if (attempt.env().reduces() == 0) {
      direct = OutputWriters.newApiDirect(attempt, reporter.frameworkCounter(TaskCounter.MAP_OUTPUT_RECORDS));
      writer = direct;
    } else {
      buffer = SortBufferFactory.create(attempt);
      writer = new OutputWriters.NewApiPartitioned(buffer, attempt);
    }
    try {
      MapContextImpl mapContext = new MapContextImpl(conf, attempt.id(), reader, writer,
          attempt.committer(), reporter, split);
      Mapper.Context mapperContext = new WrappedMapper().getMapContext(mapContext);
      reader.initialize(split, mapperContext);
      mapper.run(mapperContext);
      reader.close();
      writer.close(mapperContext);
      return buffer == null ? null : buffer.finish();
    } catch (Exception | Error e) {
      closeQuietly(reader);
      if (direct != null) {
        direct.closeQuietly(context);
      }
      if (buffer != null) {
        buffer.abort();
      }
      throw e;
    }
  }

  private static void closeQuietly(RecordReader<?, ?> reader) {
    try {
      reader.close();
    } catch (IOException | RuntimeException ignored) {
      // the attempt is failing already
    }
  }

  /** Counts input records and bytes, reports progress and stops a killed attempt. */
  private static final class TrackedReader<K, V> extends RecordReader<K, V> {
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
    public void initialize(InputSplit split, TaskAttemptContext context)
        throws IOException, InterruptedException {
      long before = tracker.beforeRead();
      real.initialize(split, context);
      tracker.afterRead(before);
    }

    @Override
    public boolean nextKeyValue() throws IOException, InterruptedException {
      reporter.checkKilled();
      long before = tracker.beforeRead();
      boolean more = real.nextKeyValue();
      tracker.afterRead(before);
      if (more) {
        try {
          tracker.recordRead(real::getProgress);
        } catch (IOException | InterruptedException | RuntimeException e) {
          throw e;
        } catch (Exception e) {
          throw new IOException(e);
        }
      }
      return more;
    }

    @Override
    public K getCurrentKey() throws IOException, InterruptedException {
      return real.getCurrentKey();
    }

    @Override
    public V getCurrentValue() throws IOException, InterruptedException {
      return real.getCurrentValue();
    }

    @Override
    public float getProgress() throws IOException, InterruptedException {
      return real.getProgress();
    }

    @Override
    public void close() throws IOException {
      if (!closed) {
        closed = true;
        long before = tracker.beforeRead();
        real.close();
        tracker.afterRead(before);
      }
    }
  }
}
