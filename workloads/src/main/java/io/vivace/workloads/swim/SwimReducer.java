package io.vivace.workloads.swim;

import java.io.IOException;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * For each value, emits on average {@value SwimJobFactory#REDUCE_RATIO} random records (the
 * job's output over its shuffle), seeded like {@link SwimMapper} with the reduce's number.
 */
public class SwimReducer
    extends Reducer<BytesWritable, BytesWritable, BytesWritable, BytesWritable> {

  private RandomRecords records;

  @Override
  protected void setup(Context context) {
    records = RandomRecords.forTask(context, Seeds.REDUCE, SwimJobFactory.REDUCE_RATIO);
  }

  @Override
  protected void reduce(BytesWritable key, Iterable<BytesWritable> values, Context context)
      throws IOException, InterruptedException {
    for (BytesWritable ignored : values) {
      records.emit(context::write);
    }
  }
}
