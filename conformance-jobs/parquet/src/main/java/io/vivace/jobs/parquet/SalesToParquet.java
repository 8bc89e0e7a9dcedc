package io.vivace.jobs.parquet;

import java.io.IOException;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetOutputFormat;
import org.apache.parquet.hadoop.example.ExampleOutputFormat;
import org.apache.parquet.hadoop.example.GroupWriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Converts sales from CSV ({@code store,product,day,quantity,cents[,coupon]}) to Parquet with the
 * example Group API: a map-only job writing {@code Group}s through {@code ExampleOutputFormat},
 * Snappy-compressed. Usage: {@code SalesToParquet <in> <out>}.
 */
public class SalesToParquet extends Configured implements Tool {

  public static class CsvMapper extends Mapper<LongWritable, Text, Void, Group> {
    private SimpleGroupFactory groups;

    @Override
    protected void setup(Context context) {
      groups = new SimpleGroupFactory(GroupWriteSupport.getSchema(context.getConfiguration()));
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      String[] f = line.toString().split(",");
      Group sale = groups.newGroup()
          .append("store", f[0])
          .append("product", f[1])
          .append("day", Integer.parseInt(f[2]))
          .append("quantity", Integer.parseInt(f[3]))
          .append("cents", Long.parseLong(f[4]));
      if (f.length > 5) {
        sale.append("coupon", f[5]);
      }
      context.write(null, sale);
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Job job = Job.getInstance(getConf(), "sales to parquet");
    job.setJarByClass(SalesToParquet.class);
    FileInputFormat.setInputPaths(job, new Path(args[0]));
    job.setMapperClass(CsvMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputFormatClass(ExampleOutputFormat.class);
    ExampleOutputFormat.setSchema(job, Sales.SCHEMA);
    ParquetOutputFormat.setCompression(job, CompressionCodecName.SNAPPY);
    job.setOutputKeyClass(Void.class);
    job.setOutputValueClass(Group.class);
    FileOutputFormat.setOutputPath(job, new Path(args[1]));
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new SalesToParquet(), args));
  }
}
