package io.vivace.jobs.avro;

import io.vivace.jobs.avro.model.User;
import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.mapred.AvroKey;
import org.apache.avro.mapred.AvroValue;
import org.apache.avro.mapreduce.AvroJob;
import org.apache.avro.mapreduce.AvroKeyInputFormat;
import org.apache.avro.mapreduce.AvroKeyValueOutputFormat;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The color count of Avro's MapReduce guide: {@link User} records (a specific record class generated
 * from {@code user.avsc}) read with {@code AvroKeyInputFormat}, counted by favorite color with
 * Writables through the shuffle and a combiner, written with {@code AvroKeyValueOutputFormat} as
 * (string, int) pairs. Usage: {@code ColorCount <in> <out>}.
 */
public class ColorCount extends Configured implements Tool {

  public static class ColorCountMapper extends Mapper<AvroKey<User>, NullWritable, Text, IntWritable> {
    private final Text color = new Text();
    private final IntWritable one = new IntWritable(1);

    @Override
    protected void map(AvroKey<User> key, NullWritable value, Context context) throws IOException, InterruptedException {
      CharSequence favorite = key.datum().getFavoriteColor();
      color.set(favorite == null ? "none" : favorite.toString());
      context.write(color, one);
    }
  }

  public static class ColorCountReducer extends Reducer<Text, IntWritable, AvroKey<CharSequence>, AvroValue<Integer>> {
    @Override
    protected void reduce(Text color, Iterable<IntWritable> counts, Context context) throws IOException, InterruptedException {
      int sum = 0;
      for (IntWritable count : counts) {
        sum += count.get();
      }
      context.write(new AvroKey<>(color.toString()), new AvroValue<>(sum));
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Job job = Job.getInstance(getConf(), "color count");
    job.setJarByClass(ColorCount.class);
    FileInputFormat.setInputPaths(job, new Path(args[0]));
    FileOutputFormat.setOutputPath(job, new Path(args[1]));

    job.setInputFormatClass(AvroKeyInputFormat.class);
    job.setMapperClass(ColorCountMapper.class);
    AvroJob.setInputKeySchema(job, User.getClassSchema());
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(IntWritable.class);
    job.setCombinerClass(IntSumReducer.class);

    job.setOutputFormatClass(AvroKeyValueOutputFormat.class);
    job.setReducerClass(ColorCountReducer.class);
    AvroJob.setOutputKeySchema(job, Schema.create(Schema.Type.STRING));
    AvroJob.setOutputValueSchema(job, Schema.create(Schema.Type.INT));
    job.setNumReduceTasks(3);
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new ColorCount(), args));
  }
}
