package io.vivace.workloads.swim;

import java.io.IOException;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * For each input record, emits on average {@value SwimJobFactory#MAP_RATIO} random records (the
 * job's shuffle over its input), the fraction by a Bernoulli draw from a stream seeded with the
 * replay's seed, the job's index and the map's number: the same records on every engine.
 */
public class SwimMapper extends Mapper<BytesWritable, BytesWritable, BytesWritable, BytesWritable> {

  private RandomRecords records;

  @Override
  protected void setup(Context context) {
    records = RandomRecords.forTask(context, Seeds.MAP, SwimJobFactory.MAP_RATIO);
  }

  @Override
  protected void map(BytesWritable key, BytesWritable value, Context context)
      throws IOException, InterruptedException {
    records.emit(context::write);
  }
}
