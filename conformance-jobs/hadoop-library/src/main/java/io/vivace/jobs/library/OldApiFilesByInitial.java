package io.vivace.jobs.library;

import java.io.IOException;
import java.util.Iterator;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.FileInputFormat;
import org.apache.hadoop.mapred.FileOutputFormat;
import org.apache.hadoop.mapred.JobClient;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.Mapper;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.lib.MultipleTextOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The old API's {@code MultipleTextOutputFormat}, subclassed by the job to name a file per initial
 * letter of the key: word counts in {@code a/part-00000}, {@code b/part-00001}, ...
 * Usage: {@code OldApiFilesByInitial <in> <out>}.
 */
public class OldApiFilesByInitial extends Configured implements Tool {

  public static class ByInitial extends MultipleTextOutputFormat<Text, IntWritable> {
    @Override
    protected String generateFileNameForKeyValue(Text key, IntWritable value, String name) {
      return key.toString().substring(0, 1) + "/" + name;
    }
  }

  public static class Words extends MapReduceBase implements Mapper<LongWritable, Text, Text, IntWritable> {
    private final Text word = new Text();
    private final IntWritable one = new IntWritable(1);

    @Override
    public void map(LongWritable offset, Text line, OutputCollector<Text, IntWritable> out, Reporter reporter)
        throws IOException {
      for (String w : line.toString().toLowerCase().split("[^a-z]+")) {
        if (!w.isEmpty()) {
          word.set(w);
          out.collect(word, one);
        }
      }
    }
  }

  public static class Sum extends MapReduceBase implements Reducer<Text, IntWritable, Text, IntWritable> {
    @Override
    public void reduce(Text word, Iterator<IntWritable> counts, OutputCollector<Text, IntWritable> out,
                       Reporter reporter) throws IOException {
      int n = 0;
      while (counts.hasNext()) {
        n += counts.next().get();
      }
      out.collect(word, new IntWritable(n));
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    JobConf job = new JobConf(getConf(), OldApiFilesByInitial.class);
    job.setJobName("old API files by initial");
    job.setMapperClass(Words.class);
    job.setCombinerClass(Sum.class);
    job.setReducerClass(Sum.class);
    job.setNumReduceTasks(2);
    job.setOutputFormat(ByInitial.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    FileInputFormat.addInputPath(job, new Path(args[0]));
    FileOutputFormat.setOutputPath(job, new Path(args[1]));
    return JobClient.runJob(job).isSuccessful() ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new OldApiFilesByInitial(), args));
  }
}
