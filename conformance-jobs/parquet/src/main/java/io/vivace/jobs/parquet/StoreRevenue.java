package io.vivace.jobs.parquet;

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
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetInputFormat;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.example.ExampleInputFormat;
import org.apache.parquet.hadoop.example.ExampleOutputFormat;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * Revenue per store and day with the example Group API: sales read with {@code ExampleInputFormat}
 * through a projection of three of their columns ({@code parquet.read.schema}), summed with a
 * combiner, written as {@code Group}s with {@code ExampleOutputFormat} by three reduces.
 * Usage: {@code StoreRevenue <in> <out>}.
 */
public class StoreRevenue extends Configured implements Tool {

  static final MessageType PROJECTION = MessageTypeParser.parseMessageType(
      "message sale { required binary store (UTF8); required int32 day; required int32 quantity; required int64 cents; }");
  static final MessageType REVENUE = MessageTypeParser.parseMessageType(
      "message revenue { required binary store (UTF8); required int32 day; required int64 cents; }");

  public static class RevenueMapper extends Mapper<Void, Group, Text, LongWritable> {
    private final Text storeDay = new Text();
    private final LongWritable cents = new LongWritable();

    @Override
    protected void map(Void key, Group sale, Context context) throws IOException, InterruptedException {
      storeDay.set(sale.getString("store", 0) + "\t" + sale.getInteger("day", 0));
      cents.set(sale.getInteger("quantity", 0) * sale.getLong("cents", 0));
      context.write(storeDay, cents);
    }
  }

  public static class RevenueReducer extends Reducer<Text, LongWritable, Void, Group> {
    private final SimpleGroupFactory groups = new SimpleGroupFactory(REVENUE);

    @Override
    protected void reduce(Text storeDay, Iterable<LongWritable> values, Context context) throws IOException, InterruptedException {
      long total = 0;
      for (LongWritable v : values) {
        total += v.get();
      }
      String[] key = storeDay.toString().split("\t");
      context.write(null, groups.newGroup().append("store", key[0]).append("day", Integer.parseInt(key[1])).append("cents", total));
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Job job = Job.getInstance(getConf(), "store revenue");
    job.setJarByClass(StoreRevenue.class);
    job.setInputFormatClass(ExampleInputFormat.class);
    job.getConfiguration().set(ReadSupport.PARQUET_READ_SCHEMA, PROJECTION.toString());
    ParquetInputFormat.setInputPaths(job, new Path(args[0]));
    job.setMapperClass(RevenueMapper.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(LongWritable.class);
    job.setCombinerClass(LongSumReducer.class);
    job.setReducerClass(RevenueReducer.class);
    job.setNumReduceTasks(3);
    job.setOutputFormatClass(ExampleOutputFormat.class);
    ExampleOutputFormat.setSchema(job, REVENUE);
    job.setOutputKeyClass(Void.class);
    job.setOutputValueClass(Group.class);
    FileOutputFormat.setOutputPath(job, new Path(args[1]));
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new StoreRevenue(), args));
  }
}
