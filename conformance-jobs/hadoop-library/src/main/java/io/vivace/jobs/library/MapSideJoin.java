package io.vivace.jobs.library;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.join.CompositeInputFormat;
import org.apache.hadoop.mapreduce.lib.join.TupleWritable;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The map-side join of {@code CompositeInputFormat}: customers and orders are first each sorted and
 * partitioned alike (two jobs of two reduces each, values of the job's own class {@link
 * ReduceSideJoin.Tagged}), then joined inside the maps of a third job, which read both sides'
 * partitions through an {@code inner(tbl(...), tbl(...))} expression and get a {@code TupleWritable}
 * per key. Output folders {@code customers}, {@code orders} and {@code joined} under the output.
 * Usage: {@code MapSideJoin <customers> <orders> <out>}.
 */
public class MapSideJoin extends Configured implements Tool {

  /** Keys a line by its first field, the record tagged with its side. */
  public static class Keyed extends Mapper<LongWritable, Text, Text, ReduceSideJoin.Tagged> {
    private final Text id = new Text();
    private final ReduceSideJoin.Tagged tagged = new ReduceSideJoin.Tagged();

    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      String[] fields = line.toString().split(",", 2);
      id.set(fields[0]);
      tagged.set(context.getConfiguration().getBoolean("join.customers", false), fields[1]);
      context.write(id, tagged);
    }
  }

  /** Keeps, per key, the smallest record, so that each side has one record per key. */
  public static class First extends Reducer<Text, ReduceSideJoin.Tagged, Text, ReduceSideJoin.Tagged> {
    @Override
    protected void reduce(Text id, Iterable<ReduceSideJoin.Tagged> records, Context context)
        throws IOException, InterruptedException {
      ReduceSideJoin.Tagged first = null;
      String smallest = null;
      for (ReduceSideJoin.Tagged t : records) {
        String record = t.toString();
        if (smallest == null || record.compareTo(smallest) < 0) {
          smallest = record;
          first = new ReduceSideJoin.Tagged();
          first.set(t.isCustomer(), t.record());
        }
      }
      context.write(id, first);
    }
  }

  public static class Joined extends Mapper<Text, TupleWritable, Text, Text> {
    private final Text pair = new Text();

    @Override
    protected void map(Text id, TupleWritable tuple, Context context) throws IOException, InterruptedException {
      StringBuilder sides = new StringBuilder();
      for (Writable side : tuple) {
        sides.append(sides.length() == 0 ? "" : " | ").append(side);
      }
      pair.set(sides.toString());
      context.write(id, pair);
    }
  }

  /** Sorts one side into two partitions of a SequenceFile, one record per key. */
  static boolean sortSide(Configuration base, Path in, Path out, boolean customers) throws Exception {
    Configuration conf = new Configuration(base);
    conf.setBoolean("join.customers", customers);
    Job job = Job.getInstance(conf, "sort " + in.getName());
    job.setJarByClass(MapSideJoin.class);
    job.setMapperClass(Keyed.class);
    job.setReducerClass(First.class);
    job.setNumReduceTasks(2);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(ReduceSideJoin.Tagged.class);
    job.setOutputFormatClass(SequenceFileOutputFormat.class);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job.waitForCompletion(true);
  }

  @Override
  public int run(String[] args) throws Exception {
    Path out = new Path(args[2]);
    Path customers = new Path(out, "customers");
    Path orders = new Path(out, "orders");
    if (!sortSide(getConf(), new Path(args[0]), customers, true)
        || !sortSide(getConf(), new Path(args[1]), orders, false)) {
      return 1;
    }
    Job job = Job.getInstance(getConf(), "map-side join");
    job.setJarByClass(MapSideJoin.class);
    job.getConfiguration().set(CompositeInputFormat.JOIN_EXPR,
        CompositeInputFormat.compose("inner", SequenceFileInputFormat.class, customers, orders));
    job.setInputFormatClass(CompositeInputFormat.class);
    job.setMapperClass(Joined.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    FileOutputFormat.setOutputPath(job, new Path(out, "joined"));
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new MapSideJoin(), args));
  }
}
