package io.vivace.jobs.library;

import java.io.IOException;
import java.io.Serializable;
import java.util.Objects;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.serializer.JavaSerialization;
import org.apache.hadoop.io.serializer.JavaSerializationComparator;
import org.apache.hadoop.io.serializer.WritableSerialization;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Map output of plain {@code Serializable} classes of the job's own through Hadoop's
 * {@code JavaSerialization}, sorted by {@code JavaSerializationComparator} (which deserialises
 * them). Lines {@code name value}; output: per name, the number of values and their sum.
 * Usage: {@code JavaSerializedPairs <in> <out>}.
 */
public class JavaSerializedPairs extends Configured implements Tool {

  /** A name, ordered by its text. */
  public static final class Name implements Serializable, Comparable<Name> {
    private static final long serialVersionUID = 1L;
    final String text;

    Name(String text) {
      this.text = text;
    }

    @Override
    public int compareTo(Name o) {
      return text.compareTo(o.text);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Name n && text.equals(n.text);
    }

    @Override
    public int hashCode() {
      return Objects.hashCode(text);
    }
  }

  /** A measured value. */
  public static final class Measure implements Serializable {
    private static final long serialVersionUID = 1L;
    final long value;

    Measure(long value) {
      this.value = value;
    }
  }

  public static class Parse extends Mapper<LongWritable, Text, Name, Measure> {
    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      String[] f = line.toString().split(" ");
      context.write(new Name(f[0]), new Measure(Long.parseLong(f[1])));
    }
  }

  public static class Sum extends Reducer<Name, Measure, Text, Text> {
    @Override
    protected void reduce(Name name, Iterable<Measure> measures, Context context) throws IOException, InterruptedException {
      long n = 0;
      long sum = 0;
      for (Measure m : measures) {
        n++;
        sum += m.value;
      }
      context.write(new Text(name.text), new Text(n + " " + sum));
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    getConf().setStrings("io.serializations", JavaSerialization.class.getName(), WritableSerialization.class.getName());
    Job job = Job.getInstance(getConf(), "java-serialized pairs");
    job.setJarByClass(JavaSerializedPairs.class);
    job.setMapperClass(Parse.class);
    job.setReducerClass(Sum.class);
    job.setNumReduceTasks(2);
    job.setMapOutputKeyClass(Name.class);
    job.setMapOutputValueClass(Measure.class);
    job.setSortComparatorClass(JavaSerializationComparator.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    FileInputFormat.addInputPath(job, new Path(args[0]));
    FileOutputFormat.setOutputPath(job, new Path(args[1]));
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new JavaSerializedPairs(), args));
  }
}
