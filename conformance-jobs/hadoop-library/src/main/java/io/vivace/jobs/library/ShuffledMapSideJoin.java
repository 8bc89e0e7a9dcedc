package io.vivace.jobs.library;

import java.io.IOException;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.join.CompositeInputFormat;
import org.apache.hadoop.mapreduce.lib.join.TupleWritable;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The map-side join of {@link MapSideJoin} where Hadoop's join code must find the job's classes by
 * name: the join expression names an input format of the job's own, and the maps send the
 * {@code TupleWritable}s (holding values of the job's own class) through the shuffle, so that the
 * reduce reads them back ({@code TupleWritable.readFields} loads each value's class by name).
 * Output folders {@code customers}, {@code orders} and {@code joined}.
 * Usage: {@code ShuffledMapSideJoin <customers> <orders> <out>}.
 */
public class ShuffledMapSideJoin extends Configured implements Tool {

  /** SequenceFiles of tagged records: an input format of the job's own, named in the expression. */
  public static class TaggedRecords extends SequenceFileInputFormat<Text, ReduceSideJoin.Tagged> {
  }

  public static class PassTuples extends Mapper<Text, TupleWritable, Text, TupleWritable> {
  }

  public static class FormatTuples extends Reducer<Text, TupleWritable, Text, Text> {
    private final Text sides = new Text();

    @Override
    protected void reduce(Text id, Iterable<TupleWritable> tuples, Context context) throws IOException, InterruptedException {
      for (TupleWritable tuple : tuples) {
        StringBuilder line = new StringBuilder();
        for (Writable side : tuple) {
          line.append(line.length() == 0 ? "" : " | ").append(side.getClass().getSimpleName()).append(' ').append(side);
        }
        sides.set(line.toString());
        context.write(id, sides);
      }
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Path out = new Path(args[2]);
    Path customers = new Path(out, "customers");
    Path orders = new Path(out, "orders");
    if (!MapSideJoin.sortSide(getConf(), new Path(args[0]), customers, true)
        || !MapSideJoin.sortSide(getConf(), new Path(args[1]), orders, false)) {
      return 1;
    }
    Job job = Job.getInstance(getConf(), "map-side join, tuples shuffled");
    job.setJarByClass(ShuffledMapSideJoin.class);
    job.getConfiguration().set(CompositeInputFormat.JOIN_EXPR,
        CompositeInputFormat.compose("outer", TaggedRecords.class, customers, orders));
    job.setInputFormatClass(CompositeInputFormat.class);
    job.setMapperClass(PassTuples.class);
    job.setReducerClass(FormatTuples.class);
    job.setNumReduceTasks(2);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(TupleWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    FileOutputFormat.setOutputPath(job, new Path(out, "joined"));
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new ShuffledMapSideJoin(), args));
  }
}
