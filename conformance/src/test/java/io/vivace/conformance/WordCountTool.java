package io.vivace.conformance;

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
 * Apache's {@code wordcount} example as a {@link Tool}.
 *
 * <p>{@link WordCount} has only a {@code main} that ends in {@code System.exit}, so neither it nor
 * {@code ExampleDriver}/{@code ProgramDriver} (which invoke that main) can run inside the test JVM.
 * This tool configures the job exactly as that main does, with Apache's own {@link
 * WordCount.TokenizerMapper} and {@link WordCount.IntSumReducer}: the job name, combiner, reducer,
 * output key/value classes, one or more input paths and the output path. Generic options
 * ({@code -D ...}) have already been applied by ToolRunner, as GenericOptionsParser does in main.
 */
public final class WordCountTool extends Configured implements Tool {

  private Job job;

  /** The job of the last run (for its counters and status). */
  public Job job() {
    return job;
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("Usage: wordcount <in> [<in>...] <out>");
      return 2;
    }
    job = Job.getInstance(getConf(), "word count");
    job.setJarByClass(WordCount.class);
    job.setMapperClass(WordCount.TokenizerMapper.class);
    job.setCombinerClass(WordCount.IntSumReducer.class);
    job.setReducerClass(WordCount.IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    for (int i = 0; i < args.length - 1; ++i) {
      FileInputFormat.addInputPath(job, new Path(args[i]));
    }
    FileOutputFormat.setOutputPath(job, new Path(args[args.length - 1]));
    return job.waitForCompletion(true) ? 0 : 1;
  }
}
