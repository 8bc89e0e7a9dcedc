package io.vivace.jobs.library;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.MultipleInputs;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The textbook reduce-side join: customers and orders, one mapper per input through the new API's
 * {@code MultipleInputs}, the record's side carried in a value class of the job's own. Input lines
 * are {@code id,fields}; the output has one line per matching pair.
 * Usage: {@code ReduceSideJoin <customers> <orders> <out>}.
 */
public class ReduceSideJoin extends Configured implements Tool {

  /** A record with the side it came from. */
  public static class Tagged implements Writable {
    private boolean customer;
    private final Text record = new Text();

    void set(boolean customer, String record) {
      this.customer = customer;
      this.record.set(record);
    }

    boolean isCustomer() {
      return customer;
    }

    String record() {
      return record.toString();
    }

    @Override
    public String toString() {
      return (customer ? "customer " : "order ") + record;
    }

    @Override
    public void write(DataOutput out) throws IOException {
      out.writeBoolean(customer);
      record.write(out);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      customer = in.readBoolean();
      record.readFields(in);
    }
  }

  /** Splits a line into its key and the rest. */
  abstract static class SideMapper extends Mapper<LongWritable, Text, Text, Tagged> {
    private final Text id = new Text();
    private final Tagged tagged = new Tagged();

    abstract boolean customers();

    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      String[] fields = line.toString().split(",", 2);
      id.set(fields[0]);
      tagged.set(customers(), fields.length > 1 ? fields[1] : "");
      context.write(id, tagged);
    }
  }

  public static class CustomerMapper extends SideMapper {
    @Override
    boolean customers() {
      return true;
    }
  }

  public static class OrderMapper extends SideMapper {
    @Override
    boolean customers() {
      return false;
    }
  }

  /** Every customer of a key with every order of it, in sorted order of each side. */
  public static class JoinReducer extends Reducer<Text, Tagged, Text, Text> {
    private final Text pair = new Text();

    @Override
    protected void reduce(Text id, Iterable<Tagged> records, Context context) throws IOException, InterruptedException {
      List<String> customers = new ArrayList<>();
      List<String> orders = new ArrayList<>();
      for (Tagged t : records) {
        (t.customer ? customers : orders).add(t.record.toString());
      }
      customers.sort(null);
      orders.sort(null);
      for (String c : customers) {
        for (String o : orders) {
          pair.set(c + "," + o);
          context.write(id, pair);
        }
      }
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Job job = Job.getInstance(getConf(), "reduce-side join");
    job.setJarByClass(ReduceSideJoin.class);
    MultipleInputs.addInputPath(job, new Path(args[0]), TextInputFormat.class, CustomerMapper.class);
    MultipleInputs.addInputPath(job, new Path(args[1]), TextInputFormat.class, OrderMapper.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(Tagged.class);
    job.setReducerClass(JoinReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    FileOutputFormat.setOutputPath(job, new Path(args[2]));
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new ReduceSideJoin(), args));
  }
}
