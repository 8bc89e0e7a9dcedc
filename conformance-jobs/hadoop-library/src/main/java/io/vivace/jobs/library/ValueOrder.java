package io.vivace.jobs.library;

import java.io.IOException;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Writes, for each key of {@code key,value} lines, its values in the order the reduce receives
 * them: what a program sees when it keeps the values of a key in a list (a join's pairs, a
 * co-group's lists, a vector's entries). Usage: {@code ValueOrder <in> <out>}.
 */
public class ValueOrder extends Configured implements Tool {

  public static class Split extends Mapper<LongWritable, Text, Text, Text> {
    private final Text key = new Text();
    private final Text value = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      String s = line.toString();
      int comma = s.indexOf(',');
      key.set(s.substring(0, comma));
      value.set(s.substring(comma + 1));
      context.write(key, value);
    }
  }

  public static class InArrivalOrder extends Reducer<Text, Text, Text, Text> {
    private final Text list = new Text();

    @Override
    protected void reduce(Text key, Iterable<Text> values, Context context) throws IOException, InterruptedException {
      StringBuilder s = new StringBuilder();
      for (Text v : values) {
        s.append(s.length() == 0 ? "" : ",").append(v);
      }
      list.set(s.toString());
      context.write(key, list);
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Job job = Job.getInstance(getConf(), "values in arrival order");
    job.setJarByClass(ValueOrder.class);
    job.setMapperClass(Split.class);
    job.setReducerClass(InArrivalOrder.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    FileInputFormat.addInputPath(job, new Path(args[0]));
    FileOutputFormat.setOutputPath(job, new Path(args[1]));
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new ValueOrder(), args));
  }
}
