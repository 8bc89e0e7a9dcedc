package io.vivace.jobs.library;

import java.util.ArrayList;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.aggregate.ValueAggregatorBaseDescriptor;
import org.apache.hadoop.mapreduce.lib.aggregate.ValueAggregatorDescriptor;
import org.apache.hadoop.mapreduce.lib.aggregate.ValueAggregatorJob;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Hadoop's {@code lib.aggregate} with a descriptor of the job's own, which the framework's tasks
 * create by name: word counts, and per initial letter the number of words, the longest word and
 * the number of distinct words. Usage: {@code AggregateWords <in> <out>}.
 */
public class AggregateWords extends Configured implements Tool {

  /** What to aggregate for each word of a line. */
  public static class WordFacts extends ValueAggregatorBaseDescriptor {
    @Override
    public ArrayList<Map.Entry<Text, Text>> generateKeyValPairs(Object key, Object value) {
      ArrayList<Map.Entry<Text, Text>> pairs = new ArrayList<>();
      for (String word : value.toString().toLowerCase().split("[^a-z]+")) {
        if (word.isEmpty()) {
          continue;
        }
        String initial = word.substring(0, 1);
        pairs.add(generateEntry(LONG_VALUE_SUM, "count:" + word, ONE));
        pairs.add(generateEntry(LONG_VALUE_SUM, "words:" + initial, ONE));
        pairs.add(generateEntry(STRING_VALUE_MAX, "longest:" + initial, new Text(word.length() + ":" + word)));
        pairs.add(generateEntry(UNIQ_VALUE_COUNT, "distinct:" + initial, new Text(word)));
      }
      return pairs;
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Configuration conf = getConf();
    @SuppressWarnings("unchecked")
    Class<? extends ValueAggregatorDescriptor>[] descriptors = new Class[] {WordFacts.class};
    for (Map.Entry<String, String> key : ValueAggregatorJob.setAggregatorDescriptors(descriptors)) {
      if (key.getKey().startsWith("mapreduce.aggregate.descriptor")) {
        conf.set(key.getKey(), key.getValue());
      }
    }
    Job job = ValueAggregatorJob.createValueAggregatorJob(conf, new String[] {args[0], args[1], "2", "textinputformat"});
    job.setJarByClass(AggregateWords.class);
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new AggregateWords(), args));
  }
}
