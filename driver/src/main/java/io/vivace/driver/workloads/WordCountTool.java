package io.vivace.driver.workloads;

import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.examples.WordCount;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Tool;

/**
 * Apache's WordCount example as a {@link Tool}: {@code WordCount.main} ends in {@code
 * System.exit}, so this sets the job up exactly as that main does (its mapper, its reducer as
 * combiner and reducer, its job name) and returns instead. Arguments: {@code IN... OUT}.
 */
final class WordCountTool extends Configured implements Tool {

  @Override
  public int run(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("Usage: wordcount <in> [<in>...] <out>");
      return 2;
    }
    Job job = Job.getInstance(getConf(), "word count");
    job.setJarByClass(WordCount.class);
    job.setMapperClass(WordCount.TokenizerMapper.class);
    job.setCombinerClass(WordCount.IntSumReducer.class);
    job.setReducerClass(WordCount.IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    for (int i = 0; i < args.length - 1; i++) {
      FileInputFormat.addInputPath(job, new Path(args[i]));
    }
    FileOutputFormat.setOutputPath(job, new Path(args[args.length - 1]));
    return job.waitForCompletion(true) ? 0 : 1;
  }
}
