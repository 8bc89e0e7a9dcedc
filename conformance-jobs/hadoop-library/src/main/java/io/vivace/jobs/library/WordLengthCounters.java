package io.vivace.jobs.library;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Counters of an enum of the job's own, counted by its tasks and read back by its driver, which
 * writes them, with a dynamic counter group, to {@code <out>.counters} beside the output.
 * Usage: {@code WordLengthCounters <in> <out>}.
 */
public class WordLengthCounters extends Configured implements Tool {

  /** Words by length. */
  public enum WordLength { SHORT, MEDIUM, LONG }

  public static class Words extends Mapper<LongWritable, Text, Text, IntWritable> {
    private final Text word = new Text();
    private final IntWritable one = new IntWritable(1);

    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      for (String w : line.toString().toLowerCase().split("[^a-z]+")) {
        if (w.isEmpty()) {
          continue;
        }
        context.getCounter(w.length() < 4 ? WordLength.SHORT : w.length() < 8 ? WordLength.MEDIUM : WordLength.LONG)
            .increment(1);
        context.getCounter("initials", w.substring(0, 1)).increment(1);
        word.set(w);
        context.write(word, one);
      }
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Job job = Job.getInstance(getConf(), "word length counters");
    job.setJarByClass(WordLengthCounters.class);
    job.setMapperClass(Words.class);
    job.setCombinerClass(IntSumReducer.class);
    job.setReducerClass(IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    FileInputFormat.addInputPath(job, new Path(args[0]));
    Path out = new Path(args[1]);
    FileOutputFormat.setOutputPath(job, out);
    if (!job.waitForCompletion(true)) {
      return 1;
    }
    Counters counters = job.getCounters();
    Path report = new Path(out.getParent(), out.getName() + ".counters");
    FileSystem fs = report.getFileSystem(getConf());
    try (Writer w = new OutputStreamWriter(fs.create(report), StandardCharsets.UTF_8)) {
      for (WordLength length : WordLength.values()) {
        w.write(length + "=" + counters.findCounter(length).getValue() + "\n");
      }
      for (Counter c : counters.getGroup("initials")) {
        w.write("initials." + c.getName() + "=" + c.getValue() + "\n");
      }
    }
    return 0;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new WordLengthCounters(), args));
  }
}
