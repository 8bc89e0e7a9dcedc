package io.vivace.workloads.plasma;

import io.vivace.workloads.BadRecords;
import io.vivace.workloads.TextJobs;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Plasma's sort: the 100-byte lines of {@link PlasmaGen} into {@code partitions} part files (80
 * by default, as in the study), sorted within and across them. The whole line is the sort key, so
 * lines with equal keys come out in one order on every engine; the partition is the slice of the
 * 32-bit key range the key falls in. Malformed lines: see {@link BadRecords}.
 *
 * <pre>plasmasort [-r PARTITIONS] IN OUT</pre>
 */
public class PlasmaSort extends Configured implements Tool {

  public static final int DEFAULT_PARTITIONS = 80;
  static final String USAGE = "usage: plasmasort [-r PARTITIONS] IN OUT";

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new PlasmaSort(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    int partitions = DEFAULT_PARTITIONS;
    int i = 0;
    if (args.length > 1 && args[0].equals("-r")) {
      try {
        partitions = Integer.parseInt(args[1]);
      } catch (NumberFormatException e) {
        partitions = 0;
      }
      i = 2;
    }
    if (args.length - i != 2 || partitions < 1) {
      System.err.println("plasmasort: expected IN OUT and at least one partition; " + USAGE);
      return 2;
    }
    return createJob(new Path(args[i]), new Path(args[i + 1]), partitions)
        .waitForCompletion(true) ? 0 : 1;
  }

  public Job createJob(Path in, Path out, int partitions) throws IOException {
    Job job = TextJobs.create(getConf(), "plasmasort", PlasmaSort.class, in, out);
    job.setMapperClass(LineMapper.class);
    job.setPartitionerClass(KeyRangePartitioner.class);
    job.setNumReduceTasks(partitions);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(NullWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
    return job;
  }

  /** Each well-formed line as the key; the reducer is Hadoop's identity, writing it back. */
  public static class LineMapper extends Mapper<LongWritable, Text, Text, NullWritable> {
    private BadRecords badRecords;

    @Override
    protected void setup(Context context) {
      badRecords = BadRecords.of(context.getConfiguration());
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String problem = PlasmaLine.problem(line);
      if (problem != null) {
        badRecords.malformed(context,
            ((FileSplit) context.getInputSplit()).getPath() + " offset " + offset, problem);
        return;
      }
      context.write(line, NullWritable.get());
    }
  }

  /** Partition {@code p} of {@code n} holds the keys in {@code [p * 2^32 / n, (p + 1) * 2^32 / n)}. */
  public static class KeyRangePartitioner extends Partitioner<Text, NullWritable> {
    @Override
    public int getPartition(Text line, NullWritable ignored, int partitions) {
      return (int) ((PlasmaLine.keyValue(line.getBytes()) * partitions) >>> 32);
    }
  }
}
