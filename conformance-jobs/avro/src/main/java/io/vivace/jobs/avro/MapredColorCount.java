package io.vivace.jobs.avro;

import io.vivace.jobs.avro.model.User;
import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.mapred.AvroCollector;
import org.apache.avro.mapred.AvroJob;
import org.apache.avro.mapred.AvroMapper;
import org.apache.avro.mapred.AvroReducer;
import org.apache.avro.mapred.Pair;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.FileInputFormat;
import org.apache.hadoop.mapred.FileOutputFormat;
import org.apache.hadoop.mapred.JobClient;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The color count of Avro's MapReduce guide in the old API ({@code org.apache.avro.mapred}): an
 * {@code AvroMapper} of {@link User} records to (color, 1) pairs, the same {@code AvroReducer} as
 * combiner and reducer, Avro data through the whole job (input, shuffle, output).
 * Usage: {@code MapredColorCount <in> <out>}.
 */
public class MapredColorCount extends Configured implements Tool {

  public static class ColorCountMapper extends AvroMapper<User, Pair<CharSequence, Integer>> {
    @Override
    public void map(User user, AvroCollector<Pair<CharSequence, Integer>> collector, Reporter reporter) throws IOException {
      CharSequence color = user.getFavoriteColor();
      collector.collect(new Pair<>(color == null ? "none" : color, 1));
    }
  }

  public static class ColorCountReducer extends AvroReducer<CharSequence, Integer, Pair<CharSequence, Integer>> {
    @Override
    public void reduce(CharSequence color, Iterable<Integer> counts, AvroCollector<Pair<CharSequence, Integer>> collector,
        Reporter reporter) throws IOException {
      int sum = 0;
      for (Integer count : counts) {
        sum += count;
      }
      collector.collect(new Pair<>(color, sum));
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    JobConf conf = new JobConf(getConf(), MapredColorCount.class);
    conf.setJobName("color count, old API");
    FileInputFormat.setInputPaths(conf, new Path(args[0]));
    FileOutputFormat.setOutputPath(conf, new Path(args[1]));
    AvroJob.setMapperClass(conf, ColorCountMapper.class);
    AvroJob.setCombinerClass(conf, ColorCountReducer.class);
    AvroJob.setReducerClass(conf, ColorCountReducer.class);
    AvroJob.setInputSchema(conf, User.getClassSchema());
    AvroJob.setOutputSchema(conf, Pair.getPairSchema(Schema.create(Schema.Type.STRING), Schema.create(Schema.Type.INT)));
    conf.setNumReduceTasks(3);
    return JobClient.runJob(conf).isSuccessful() ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new MapredColorCount(), args));
  }
}
