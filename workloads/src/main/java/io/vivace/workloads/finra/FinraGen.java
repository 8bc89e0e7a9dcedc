package io.vivace.workloads.finra;

import io.vivace.workloads.gen.GeneratorJob;
import java.io.IOException;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Writes the audit trail's share-order table ({@link OrderRow}) as text, one row a line, in
 * {@code N} files from a map-only job ({@link GeneratorJob}). Each map writes rows until its share
 * of {@code BYTES} is reached, so the total exceeds {@code BYTES} by less than one row per map.
 * The same seed, size and map count give the same bytes.
 *
 * <pre>finragen [-maps N] [-seed S] BYTES OUT</pre>
 */
public class FinraGen extends Configured implements Tool {

  static final String USAGE = "usage: finragen [-maps N] [-seed S] BYTES OUT";

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new FinraGen(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    return GeneratorJob.run(getConf(), "finragen", USAGE, args, RowMapper.class);
  }

  /** Writes rows until the split's share of the bytes (line ends included) is reached. */
  public static class RowMapper extends Mapper<IntWritable, NullWritable, Text, NullWritable> {
    @Override
    protected void map(IntWritable split, NullWritable ignored, Context context)
        throws IOException, InterruptedException {
      Configuration conf = context.getConfiguration();
      long target = GeneratorJob.share(conf, split.get()).count();
      SplittableRandom random = GeneratorJob.random(conf, split.get());
      Symbols symbols = new Symbols();
      Text line = new Text();
      long written = 0;
      for (long n = 0; written < target; n++) {
        byte[] row = OrderRow.next(random, symbols, split.get(), n);
        line.set(row, 0, row.length);
        context.write(line, NullWritable.get());
        written += row.length + 1;
      }
    }
  }
}
