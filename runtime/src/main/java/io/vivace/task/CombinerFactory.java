package io.vivace.task;

import io.vivace.segment.SegmentWriter;
import io.vivace.sort.BufferedRun;
import io.vivace.sort.Combiner;
import io.vivace.sort.KnownEqualKeys;
import java.io.IOException;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.ReduceContext;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.reduce.WrappedReducer;
import org.apache.hadoop.mapreduce.task.ReduceContextImpl;
import org.apache.hadoop.util.ReflectionUtils;

/** Builds the job's combiner, new or old API, as a {@link Combiner} over serialised records. */
final class CombinerFactory {

  private CombinerFactory() {
  }

  /** The combiner of the attempt's job, or null when the job has none. */
  static Combiner create(TaskAttempt attempt) throws IOException {
    JobConf conf = attempt.conf();
    if (conf.getUseNewMapper()) {
      Class<? extends org.apache.hadoop.mapreduce.Reducer<?, ?, ?, ?>> cls;
      try {
        cls = attempt.newApiContext().getCombinerClass();
      } catch (ClassNotFoundException e) {
        throw new IOException(e);
      }
      return cls == null ? null : new NewApiCombiner(attempt, cls);
    }
    return conf.getCombinerClass() == null ? null : new OldApiCombiner(attempt);
  }

  private abstract static class Base implements Combiner {
    final TaskAttempt attempt;
    /** Combine input records, counted per record by ReduceContextImpl. */
    final Counter inputRecords;
    @SuppressWarnings("rawtypes")
    final SerializedRecordWriter output;
    final RawComparator<?> grouping;
    /** Read the combiner's input keys and values in place, for one combiner run after another. */
    final FieldReader<?> keyReader;
    final FieldReader<?> valueReader;

    Base(TaskAttempt attempt) throws IOException {
      this.attempt = attempt;
      JobConf conf = attempt.conf();
      TaskReporter reporter = attempt.reporter();
      this.inputRecords = reporter.frameworkCounter(TaskCounter.COMBINE_INPUT_RECORDS);
      this.output = new SerializedRecordWriter<>(attempt.serializations(), conf.getMapOutputKeyClass(),
          conf.getMapOutputValueClass(), reporter.frameworkCounter(TaskCounter.COMBINE_OUTPUT_RECORDS));
      this.grouping = conf.getCombinerKeyGroupingComparator();
      this.keyReader = FieldReader.of(attempt.serializations(), conf.getMapOutputKeyClass(), "map output key");
      this.valueReader = FieldReader.of(attempt.serializations(), conf.getMapOutputValueClass(), "map output value");
    }

    /**
     * A reduce context grouping the sorted input with the combiner grouping comparator: over a
     * sort buffer's run, one reading it in place; over merged runs, Hadoop's.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    ReduceContext groupedInput(RawKeyValueIterator in, RecordWriter writer)
        throws IOException, InterruptedException {
      JobConf conf = attempt.conf();
      if (in instanceof BufferedRun run) {
        return new BufferedRunContext(conf, attempt.id(), run, inputRecords, writer,
            attempt.reporter(), grouping, keyReader, valueReader);
      }
      RawComparator comparator = in instanceof KnownEqualKeys known
          ? new RepeatedKeyComparator(grouping, known) : grouping;
      return new ReduceContextImpl(conf, attempt.id(), in, null, inputRecords, writer, null,
          attempt.reporter(), comparator, conf.getMapOutputKeyClass(),
          conf.getMapOutputValueClass());
    }
  }

  private static final class NewApiCombiner extends Base {
    private final Class<? extends org.apache.hadoop.mapreduce.Reducer<?, ?, ?, ?>> combinerClass;

    NewApiCombiner(TaskAttempt attempt,
                   Class<? extends org.apache.hadoop.mapreduce.Reducer<?, ?, ?, ?>> combinerClass)
        throws IOException {
      super(attempt);
      this.combinerClass = combinerClass;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void combine(RawKeyValueIterator in, SegmentWriter out)
        throws IOException, InterruptedException {
      output.target(out);
      org.apache.hadoop.mapreduce.Reducer combiner =
          ReflectionUtils.newInstance(combinerClass, attempt.conf());
      RecordWriter writer = new RecordWriter() {
        @Override
        public void write(Object key, Object value) throws IOException {
          output.write(key, value);
        }

        @Override
        public void close(TaskAttemptContext context) {
        }
      };
      ReduceContext context = groupedInput(in, writer);
      combiner.run(new WrappedReducer().getReducerContext(context));
    }
  }

  private static final class OldApiCombiner extends Base {
    OldApiCombiner(TaskAttempt attempt) throws IOException {
      super(attempt);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void combine(RawKeyValueIterator in, SegmentWriter out)
        throws IOException, InterruptedException {
      output.target(out);
      org.apache.hadoop.mapred.Reducer combiner =
          ReflectionUtils.newInstance(attempt.conf().getCombinerClass(), attempt.conf());
      OutputCollector collector = output::write;
      ReduceContext context = groupedInput(in, null);
      try {
        while (context.nextKey()) {
          combiner.reduce(context.getCurrentKey(), context.getValues().iterator(), collector,
              attempt.reporter());
        }
      } finally {
        combiner.close();
      }
    }
  }
}
