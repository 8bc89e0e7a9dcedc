package io.vivace.workloads.plasma;

import io.vivace.workloads.gen.GeneratorJob;
import io.vivace.workloads.gen.IndexSplitInputFormat;
import io.vivace.workloads.gen.RowRange;
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
 * Writes Plasma sort input: {@code round(BYTES / 100)} lines ({@link PlasmaLine}) in {@code N}
 * files, one map-only task per file ({@link GeneratorJob}). The same seed, size and map count
 * give the same bytes.
 *
 * <pre>plasmagen [-maps N] [-seed S] BYTES OUT</pre>
 */
public class PlasmaGen extends Configured implements Tool {

  static final String USAGE = "usage: plasmagen [-maps N] [-seed S] BYTES OUT";

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new PlasmaGen(), args));
  }

  /** The lines {@code bytes} asks for: the nearest whole number of 100-byte lines, at least one. */
  public static long lines(long bytes) {
    return Math.max(1, (bytes + PlasmaLine.BYTES / 2) / PlasmaLine.BYTES);
  }

  @Override
  public int run(String[] args) throws Exception {
    return GeneratorJob.run(getConf(), "plasmagen", USAGE, args, LineMapper.class);
  }

  /** Writes the lines of its split, from a random generator seeded by the seed and the split. */
  public static class LineMapper extends Mapper<IntWritable, NullWritable, Text, NullWritable> {
    @Override
    protected void map(IntWritable split, NullWritable ignored, Context context)
        throws IOException, InterruptedException {
      Configuration conf = context.getConfiguration();
      RowRange range = RowRange.of(lines(conf.getLong(GeneratorJob.BYTES, 0)),
          conf.getInt(IndexSplitInputFormat.SPLITS, 1), split.get());
      SplittableRandom random = GeneratorJob.random(conf, split.get());
      byte[] bytes = new byte[PlasmaLine.TEXT_BYTES];
      Text line = new Text();
      for (long n = 0; n < range.count(); n++) {
        PlasmaLine.fill(random, bytes);
        line.set(bytes, 0, bytes.length);
        context.write(line, NullWritable.get());
      }
    }
  }
}
