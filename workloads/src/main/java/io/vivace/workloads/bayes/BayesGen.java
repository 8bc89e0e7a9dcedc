package io.vivace.workloads.bayes;

import io.vivace.workloads.gen.GeneratorJob;
import io.vivace.workloads.gen.IndexSplitInputFormat;
import io.vivace.workloads.gen.RowRange;
import java.io.IOException;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Writes labelled documents for naive Bayes as a map-only job, the input HiBench's {@code bayes}
 * gives Mahout: a SequenceFile of {@code Text} keys {@code /label<c>/doc<i>} (the label is the
 * key's first path part, which Mahout's trainnb reads) and {@code Text} documents of 40 to 400
 * words from a vocabulary of {@value #WORDS}, Zipf-distributed around an offset of the label's own,
 * so that labels differ in their words. {@code -D vivace.bayes.classes=N} labels (default 10,
 * HiBench's tiny profile); the same seed, page count and map count give the same records.
 *
 * <pre>bayesgen [-maps N] [-seed S] PAGES OUT</pre>
 */
public class BayesGen extends Configured implements Tool {

  public static final String CLASSES = "vivace.bayes.classes";
  static final int WORDS = 10_000;
  static final String USAGE = "usage: bayesgen [-D " + CLASSES + "=N] [-maps N] [-seed S] PAGES OUT";

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new BayesGen(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    GeneratorJob generator;
    try {
      generator = GeneratorJob.parse(args);
      if (getConf().getInt(CLASSES, 10) < 1) {
        throw new IllegalArgumentException(CLASSES + " must be at least 1");
      }
    } catch (IllegalArgumentException e) {
      System.err.println("bayesgen: " + e.getMessage() + "; " + USAGE);
      return 2;
    }
    Job job = Job.getInstance(getConf(), "bayesgen");
    Configuration conf = job.getConfiguration();
    conf.setLong(GeneratorJob.SEED, generator.seed());
    conf.setLong(GeneratorJob.BYTES, generator.bytes());
    conf.setInt(IndexSplitInputFormat.SPLITS, generator.maps());
    job.setJarByClass(BayesGen.class);
    job.setInputFormatClass(IndexSplitInputFormat.class);
    job.setMapperClass(DocumentMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setOutputFormatClass(SequenceFileOutputFormat.class);
    FileOutputFormat.setOutputPath(job, generator.out());
    return job.waitForCompletion(true) ? 0 : 1;
  }

  /** Writes the split's share of the documents. */
  public static class DocumentMapper extends Mapper<IntWritable, NullWritable, Text, Text> {
    @Override
    protected void map(IntWritable split, NullWritable ignored, Context context) throws IOException, InterruptedException {
      Configuration conf = context.getConfiguration();
      int classes = conf.getInt(CLASSES, 10);
      RowRange range = GeneratorJob.share(conf, split.get());
      SplittableRandom random = GeneratorJob.random(conf, split.get());
      Text key = new Text();
      Text document = new Text();
      StringBuilder words = new StringBuilder();
      for (long page = range.first(); page < range.first() + range.count(); page++) {
        int label = random.nextInt(classes);
        int length = 40 + random.nextInt(361);
        words.setLength(0);
        for (int w = 0; w < length; w++) {
          long rank = (long) Math.floor(Math.exp(random.nextDouble() * Math.log(WORDS + 1.0))) - 1;
          words.append(w == 0 ? "" : " ").append('w').append((rank + 997L * label) % WORDS);
        }
        key.set("/label" + label + "/doc" + page);
        document.set(words.toString());
        context.write(key, document);
      }
    }
  }
}
