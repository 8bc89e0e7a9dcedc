package io.vivace.workloads.bench;

import java.io.DataInput;
import java.io.DataOutput;
import java.util.List;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/** One split holding no records: a job over it runs one map that reads nothing. */
public class EmptySplitInputFormat extends InputFormat<NullWritable, NullWritable> {

  @Override
  public List<InputSplit> getSplits(JobContext context) {
    return List.of(new EmptySplit());
  }

  @Override
  public RecordReader<NullWritable, NullWritable> createRecordReader(InputSplit split,
                                                                     TaskAttemptContext context) {
    return new EmptyRecordReader();
  }

  /** A split of length 0 with no preferred hosts. */
  public static class EmptySplit extends InputSplit implements Writable {
    @Override
    public long getLength() {
      return 0;
    }

    @Override
    public String[] getLocations() {
      return new String[0];
    }

    @Override
    public void write(DataOutput out) {
    }

    @Override
    public void readFields(DataInput in) {
    }
  }

  /** Reads no records. */
  static class EmptyRecordReader extends RecordReader<NullWritable, NullWritable> {
    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) {
    }

    @Override
    public boolean nextKeyValue() {
      return false;
    }

    @Override
    public NullWritable getCurrentKey() {
      return NullWritable.get();
    }

    @Override
    public NullWritable getCurrentValue() {
      return NullWritable.get();
    }

    @Override
    public float getProgress() {
      return 1.0f;
    }

    @Override
    public void close() {
    }
  }
}
