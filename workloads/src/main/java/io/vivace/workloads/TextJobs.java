package io.vivace.workloads;

import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/** What the workloads' jobs share: text lines in from {@code in}, text lines out to {@code out}. */
public final class TextJobs {

  private TextJobs() {}

  /**
   * A job named {@code name} from {@code jarClass}'s jar reading and writing text; fails early on
   * a bad value of the bad-records switch.
   */
  public static Job create(org.apache.hadoop.conf.Configuration conf, String name,
      Class<?> jarClass, Path in, Path out) throws IOException {
    Job job = Job.getInstance(conf, name);
    BadRecords.of(job.getConfiguration());
    job.setJarByClass(jarClass);
    job.setInputFormatClass(TextInputFormat.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }
}
