package io.vivace.jobs.library;

import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.KeyValueTextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.partition.KeyFieldBasedComparator;
import org.apache.hadoop.mapreduce.lib.partition.KeyFieldBasedPartitioner;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Sorting on fields of a text key, as Streaming users do: keys {@code country.city.population},
 * partitioned by country ({@code -k1,1}) and sorted by country, then population numerically in
 * reverse ({@code -k1,1 -k3,3nr}), over three reduces. Usage: {@code KeyFieldSort <in> <out>}.
 */
public class KeyFieldSort extends Configured implements Tool {

  @Override
  public int run(String[] args) throws Exception {
    getConf().set("mapreduce.map.output.key.field.separator", ".");
    Job job = Job.getInstance(getConf(), "key field sort");
    job.setJarByClass(KeyFieldSort.class);
    job.setInputFormatClass(KeyValueTextInputFormat.class);
    job.setMapperClass(Mapper.class);
    job.setReducerClass(Reducer.class);
    job.setNumReduceTasks(3);
    job.setPartitionerClass(KeyFieldBasedPartitioner.class);
    new KeyFieldBasedPartitioner<Text, Text>().setKeyFieldPartitionerOptions(job, "-k1,1");
    job.setSortComparatorClass(KeyFieldBasedComparator.class);
    KeyFieldBasedComparator.setKeyFieldComparatorOptions(job, "-k1,1 -k3,3nr");
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    FileInputFormat.addInputPath(job, new Path(args[0]));
    FileOutputFormat.setOutputPath(job, new Path(args[1]));
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new KeyFieldSort(), args));
  }
}
