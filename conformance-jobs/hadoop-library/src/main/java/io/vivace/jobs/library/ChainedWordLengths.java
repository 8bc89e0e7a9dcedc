package io.vivace.jobs.library;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.chain.ChainMapper;
import org.apache.hadoop.mapreduce.lib.chain.ChainReducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * {@code ChainMapper} and {@code ChainReducer}: words, then their lengths in a value class of the
 * job's own, then totals per word, then a mapper after the reducer. Each step's key and value
 * classes are declared to the chain, which checks them.
 * Usage: {@code ChainedWordLengths <in> <out>}.
 */
public class ChainedWordLengths extends Configured implements Tool {

  /** A word's length and the number of times it was seen. */
  public static class Length implements Writable {
    int letters;
    long seen;

    @Override
    public void write(DataOutput out) throws IOException {
      out.writeInt(letters);
      out.writeLong(seen);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      letters = in.readInt();
      seen = in.readLong();
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

  public static class Lengths extends Mapper<Text, IntWritable, Text, Length> {
    private final Length length = new Length();

    @Override
    protected void map(Text word, IntWritable count, Context context) throws IOException, InterruptedException {
      length.letters = word.getLength();
      length.seen = count.get();
      context.write(word, length);
    }
  }

  public static class Totals extends Reducer<Text, Length, Text, Length> {
    private final Length total = new Length();

    @Override
    protected void reduce(Text word, Iterable<Length> lengths, Context context) throws IOException, InterruptedException {
      total.seen = 0;
      for (Length l : lengths) {
        total.letters = l.letters;
        total.seen += l.seen;
      }
      context.write(word, total);
    }
  }

  public static class Describe extends Mapper<Text, Length, Text, Text> {
    private final Text description = new Text();

    @Override
    protected void map(Text word, Length length, Context context) throws IOException, InterruptedException {
      description.set(length.letters + " letters, seen " + length.seen + " times");
      context.write(word, description);
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Job job = Job.getInstance(getConf(), "chained word lengths");
    job.setJarByClass(ChainedWordLengths.class);
    Configuration none = new Configuration(false);
    ChainMapper.addMapper(job, Words.class, LongWritable.class, Text.class, Text.class, IntWritable.class, none);
    ChainMapper.addMapper(job, Lengths.class, Text.class, IntWritable.class, Text.class, Length.class, none);
    ChainReducer.setReducer(job, Totals.class, Text.class, Length.class, Text.class, Length.class, none);
    ChainReducer.addMapper(job, Describe.class, Text.class, Length.class, Text.class, Text.class, none);
    job.setNumReduceTasks(2);
    FileInputFormat.addInputPath(job, new Path(args[0]));
    FileOutputFormat.setOutputPath(job, new Path(args[1]));
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new ChainedWordLengths(), args));
  }
}
