package io.vivace.workloads.gen;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * The input of a generator job: {@value #SPLITS} splits, each one record whose key is the split's
 * index. The count comes from this format's own key because Apache's local runner overwrites
 * {@code mapreduce.job.maps} with 1; so every engine runs one map, and writes one file, per split.
 */
public class IndexSplitInputFormat extends InputFormat<IntWritable, NullWritable> {

  public static final String SPLITS = "vivace.gen.splits";

  @Override
  public List<InputSplit> getSplits(JobContext context) {
    int count = context.getConfiguration().getInt(SPLITS, 1);
    if (count < 1) {
      throw new IllegalArgumentException(SPLITS + "=" + count + ": at least 1");
    }
    List<InputSplit> splits = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      splits.add(new IndexSplit(i));
    }
    return splits;
  }

  @Override
  public RecordReader<IntWritable, NullWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new IndexReader();
  }

  /** One generator split: its index among {@value #SPLITS}. */
  public static class IndexSplit extends InputSplit implements Writable {
    private int index;

    public IndexSplit() {}

    IndexSplit(int index) {
      this.index = index;
    }

    public int index() {
      return index;
    }

    @Override
    public long getLength() {
      return 0;
    }

    @Override
    public String[] getLocations() {
      return new String[0];
    }

    @Override
    public void write(DataOutput out) throws IOException {
      out.writeInt(index);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      index = in.readInt();
    }
  }

  private static final class IndexReader extends RecordReader<IntWritable, NullWritable> {
    private final IntWritable key = new IntWritable();
    private boolean done;

    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) {
      key.set(((IndexSplit) split).index());
    }

    @Override
    public boolean nextKeyValue() {
      if (done) {
        return false;
      }
      done = true;
      return true;
    }

    @Override
    public IntWritable getCurrentKey() {
      return key;
    }

    @Override
    public NullWritable getCurrentValue() {
      return NullWritable.get();
    }

    @Override
    public float getProgress() {
      return done ? 1 : 0;
    }

    @Override
    public void close() {}
  }
}
