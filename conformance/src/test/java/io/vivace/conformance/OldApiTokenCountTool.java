package io.vivace.conformance;

import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.FileInputFormat;
import org.apache.hadoop.mapred.FileOutputFormat;
import org.apache.hadoop.mapred.JobClient;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RunningJob;
import org.apache.hadoop.mapred.TextInputFormat;
import org.apache.hadoop.mapred.TextOutputFormat;
import org.apache.hadoop.mapred.lib.LongSumReducer;
import org.apache.hadoop.mapred.lib.RegexMapper;
import org.apache.hadoop.mapred.lib.TokenCountMapper;
import org.apache.hadoop.util.Tool;

/**
 * A job of the old {@code mapred} API built only from Hadoop's own library classes and submitted
 * with {@link JobClient#runJob}: {@link TokenCountMapper} (or, with {@code -regex PATTERN},
 * {@link RegexMapper}, as Apache's grep does) and {@link LongSumReducer} as combiner and reducer,
 * over the old text input and output formats.
 */
public final class OldApiTokenCountTool extends Configured implements Tool {

  private RunningJob job;

  /** The job of the last run (for its counters). */
  public RunningJob job() {
    return job;
  }

  @Override
  public int run(String[] args) throws Exception {
    JobConf conf = new JobConf(getConf(), OldApiTokenCountTool.class);
    int first = 0;
    if (args.length >= 2 && args[0].equals("-regex")) {
      conf.setMapperClass(RegexMapper.class);
      // the old RegexMapper reads the new API's key
      conf.set(org.apache.hadoop.mapreduce.lib.map.RegexMapper.PATTERN, args[1]);
      first = 2;
    } else {
      conf.setMapperClass(TokenCountMapper.class);
    }
    if (args.length - first != 2) {
      System.err.println("Usage: OldApiTokenCountTool [-regex PATTERN] <in> <out>");
      return 2;
    }
    conf.setJobName("old-api token count");
    conf.setCombinerClass(LongSumReducer.class);
    conf.setReducerClass(LongSumReducer.class);
    conf.setOutputKeyClass(Text.class);
    conf.setOutputValueClass(LongWritable.class);
    conf.setInputFormat(TextInputFormat.class);
    conf.setOutputFormat(TextOutputFormat.class);
    FileInputFormat.setInputPaths(conf, new Path(args[first]));
    FileOutputFormat.setOutputPath(conf, new Path(args[first + 1]));
    job = JobClient.runJob(conf);
    return job.isSuccessful() ? 0 : 1;
  }
}
