package io.vivace.jobs.library;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.LazyOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.MultipleOutputs;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * {@code MultipleOutputs}: word counts written to a named text output per initial letter
 * ({@code a/part-r-00000}, ...), the rare words to a named SequenceFile output whose key is a class
 * of the job's own, nothing to the default output ({@code LazyOutputFormat}).
 * Usage: {@code SplitByInitial <in> <out>}.
 */
public class SplitByInitial extends Configured implements Tool {

  /** A word with its count, ordered by word. */
  public static class Counted implements WritableComparable<Counted> {
    final Text word = new Text();
    int count;

    @Override
    public void write(DataOutput out) throws IOException {
      word.write(out);
      out.writeInt(count);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      word.readFields(in);
      count = in.readInt();
    }

    @Override
    public int compareTo(Counted o) {
      return word.compareTo(o.word);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Counted c && word.equals(c.word) && count == c.count;
    }

    @Override
    public int hashCode() {
      return word.hashCode() * 31 + count;
    }
  }

  public static class Words extends Mapper<LongWritable, Text, Text, IntWritable> {
    private final Text word = new Text();
    private final IntWritable one = new IntWritable(1);

    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      for (String w : line.toString().toLowerCase().split("[^a-z]+")) {
        if (!w.isEmpty()) {
          word.set(w);
          context.write(word, one);
        }
      }
    }
  }

  public static class ByInitial extends Reducer<Text, IntWritable, Text, IntWritable> {
    private MultipleOutputs<Text, IntWritable> outputs;
    private final IntWritable total = new IntWritable();
    private final Counted rare = new Counted();

    @Override
    protected void setup(Context context) {
      outputs = new MultipleOutputs<>(context);
    }

    @Override
    protected void reduce(Text word, Iterable<IntWritable> ones, Context context) throws IOException, InterruptedException {
      int n = 0;
      for (IntWritable one : ones) {
        n += one.get();
      }
      total.set(n);
      outputs.write("words", word, total, word.toString().substring(0, 1) + "/part");
      if (n < 3) {
        rare.word.set(word);
        rare.count = n;
        outputs.write("rare", rare, total);
      }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      outputs.close();
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Job job = Job.getInstance(getConf(), "words split by initial");
    job.setJarByClass(SplitByInitial.class);
    job.setMapperClass(Words.class);
    job.setReducerClass(ByInitial.class);
    job.setNumReduceTasks(3);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    LazyOutputFormat.setOutputFormatClass(job, TextOutputFormat.class);
    MultipleOutputs.addNamedOutput(job, "words", TextOutputFormat.class, Text.class, IntWritable.class);
    MultipleOutputs.addNamedOutput(job, "rare", SequenceFileOutputFormat.class, Counted.class, IntWritable.class);
    MultipleOutputs.setCountersEnabled(job, true);
    FileInputFormat.addInputPath(job, new Path(args[0]));
    FileOutputFormat.setOutputPath(job, new Path(args[1]));
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new SplitByInitial(), args));
  }
}
