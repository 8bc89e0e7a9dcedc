package io.vivace.workloads.plasma;

import io.vivace.workloads.gen.IndexSplitInputFormat;
import io.vivace.workloads.gen.RowRange;
import java.io.IOException;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Writes Plasma sort input: {@code round(bytes / 100)} lines ({@link PlasmaLine}) in {@code maps}
 * files, one map-only task per file ({@code -maps}: {@code -files} is a generic option of
 * ToolRunner). The same seed, size and map count give the same bytes.
 *
 * <pre>plasmagen [-maps N] [-seed S] BYTES OUT</pre>
 */
public class PlasmaGen extends Configured implements Tool {

  public static final String LINES = "vivace.plasma.lines";
  public static final String SEED = "vivace.plasma.seed";
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
    int files = 2;
    long seed = 0;
    int i = 0;
    try {
      for (; i < args.length && args[i].startsWith("-"); i += 2) {
        switch (args[i]) {
          case "-maps" -> files = Integer.parseInt(args[i + 1]);
          case "-seed" -> seed = Long.parseLong(args[i + 1]);
          default -> throw new IllegalArgumentException("unknown option " + args[i]);
        }
      }
      if (args.length - i != 2 || files < 1) {
        throw new IllegalArgumentException("expected BYTES OUT and at least one file");
      }
      long bytes = Long.parseLong(args[i]);
      if (bytes < 1) {
        throw new IllegalArgumentException("BYTES must be at least 1");
      }
      return createJob(lines(bytes), files, seed, new Path(args[i + 1])).waitForCompletion(true)
          ? 0 : 1;
    } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
      System.err.println("plasmagen: bad argument (" + e.getMessage() + "); " + USAGE);
      return 2;
    } catch (IllegalArgumentException e) {
      System.err.println("plasmagen: " + e.getMessage() + "; " + USAGE);
      return 2;
    }
  }

  public Job createJob(long lines, int files, long seed, Path out) throws IOException {
    Job job = Job.getInstance(getConf(), "plasmagen");
    Configuration conf = job.getConfiguration();
    conf.setLong(LINES, lines);
    conf.setLong(SEED, seed);
    conf.setInt(IndexSplitInputFormat.SPLITS, files);
    job.setJarByClass(PlasmaGen.class);
    job.setInputFormatClass(IndexSplitInputFormat.class);
    job.setMapperClass(LineMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }

  /** Writes the lines of its split, from a random generator seeded by the seed and the split. */
  public static class LineMapper extends Mapper<IntWritable, NullWritable, Text, NullWritable> {
    @Override
    protected void map(IntWritable split, NullWritable ignored, Context context)
        throws IOException, InterruptedException {
      Configuration conf = context.getConfiguration();
      RowRange range = RowRange.of(conf.getLong(LINES, 0),
          conf.getInt(IndexSplitInputFormat.SPLITS, 1), split.get());
      SplittableRandom random =
          new SplittableRandom(conf.getLong(SEED, 0) * 0x9E3779B97F4A7C15L + split.get());
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
