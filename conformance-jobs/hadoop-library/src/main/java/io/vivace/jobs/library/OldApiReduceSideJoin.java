package io.vivace.jobs.library;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapred.FileOutputFormat;
import org.apache.hadoop.mapred.JobClient;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.Mapper;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.TextInputFormat;
import org.apache.hadoop.mapred.lib.MultipleInputs;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The reduce-side join of {@link ReduceSideJoin} in the old API ({@code org.apache.hadoop.mapred.lib.MultipleInputs}),
 * with its own value class. Usage: {@code OldApiReduceSideJoin <customers> <orders> <out>}.
 */
public class OldApiReduceSideJoin extends Configured implements Tool {

  /** A record with the side it came from. */
  public static class Side implements Writable {
    private int side;
    private final Text record = new Text();

    @Override
    public void write(DataOutput out) throws IOException {
      out.writeInt(side);
      record.write(out);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      side = in.readInt();
      record.readFields(in);
    }
  }

  abstract static class SideMapper extends MapReduceBase implements Mapper<LongWritable, Text, Text, Side> {
    private final Text id = new Text();
    private final Side value = new Side();

    abstract int side();

    @Override
    public void map(LongWritable offset, Text line, OutputCollector<Text, Side> out, Reporter reporter)
        throws IOException {
      String[] fields = line.toString().split(",", 2);
      id.set(fields[0]);
      value.side = side();
      value.record.set(fields.length > 1 ? fields[1] : "");
      out.collect(id, value);
    }
  }

  public static class Customers extends SideMapper {
    @Override
    int side() {
      return 0;
    }
  }

  public static class Orders extends SideMapper {
    @Override
    int side() {
      return 1;
    }
  }

  public static class Join extends MapReduceBase implements Reducer<Text, Side, Text, Text> {
    @Override
    public void reduce(Text id, Iterator<Side> values, OutputCollector<Text, Text> out, Reporter reporter)
        throws IOException {
      List<String> customers = new ArrayList<>();
      List<String> orders = new ArrayList<>();
      while (values.hasNext()) {
        Side s = values.next();
        (s.side == 0 ? customers : orders).add(s.record.toString());
      }
      customers.sort(null);
      orders.sort(null);
      for (String c : customers) {
        for (String o : orders) {
          out.collect(id, new Text(c + "," + o));
        }
      }
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    JobConf job = new JobConf(getConf(), OldApiReduceSideJoin.class);
    job.setJobName("reduce-side join, old API");
    MultipleInputs.addInputPath(job, new Path(args[0]), TextInputFormat.class, Customers.class);
    MultipleInputs.addInputPath(job, new Path(args[1]), TextInputFormat.class, Orders.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(Side.class);
    job.setReducerClass(Join.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    FileOutputFormat.setOutputPath(job, new Path(args[2]));
    return JobClient.runJob(job).isSuccessful() ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new OldApiReduceSideJoin(), args));
  }
}
