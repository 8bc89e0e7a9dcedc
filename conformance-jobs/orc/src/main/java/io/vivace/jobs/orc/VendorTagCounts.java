package io.vivace.jobs.orc;

import java.io.IOException;
import java.util.Iterator;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.mapred.FileInputFormat;
import org.apache.hadoop.mapred.FileOutputFormat;
import org.apache.hadoop.mapred.JobClient;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.Mapper;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.apache.orc.OrcConf;
import org.apache.orc.TypeDescription;
import org.apache.orc.mapred.OrcInputFormat;
import org.apache.orc.mapred.OrcList;
import org.apache.orc.mapred.OrcMap;
import org.apache.orc.mapred.OrcOutputFormat;
import org.apache.orc.mapred.OrcStruct;

/**
 * Tags per vendor in the old API: trips read with {@code org.apache.orc.mapred.OrcInputFormat}, their
 * list of tags unrolled into (vendor, tag) Text pairs, and one row per vendor written with
 * {@code org.apache.orc.mapred.OrcOutputFormat}: the number of tags on its trips and a map column
 * of tag counts ({@code OrcMap}). Usage: {@code VendorTagCounts <in> <out>}.
 */
public class VendorTagCounts extends Configured implements Tool {

  static final TypeDescription OUTPUT = TypeDescription.fromString("struct<vendor:string,tags:bigint,counts:map<string,bigint>>");

  public static class TagMapper extends MapReduceBase implements Mapper<NullWritable, OrcStruct, Text, Text> {
    private final Text vendor = new Text();

    @Override
    public void map(NullWritable none, OrcStruct trip, OutputCollector<Text, Text> out, Reporter reporter) throws IOException {
      vendor.set((Text) trip.getFieldValue("vendor"));
      @SuppressWarnings("unchecked")
      OrcList<Text> tags = (OrcList<Text>) trip.getFieldValue("tags");
      for (Text tag : tags) {
        out.collect(vendor, tag);
      }
    }
  }

  public static class CountReducer extends MapReduceBase implements Reducer<Text, Text, NullWritable, OrcStruct> {
    private final OrcStruct row = (OrcStruct) OrcStruct.createValue(OUTPUT);

    @Override
    public void reduce(Text vendor, Iterator<Text> tags, OutputCollector<NullWritable, OrcStruct> out, Reporter reporter)
        throws IOException {
      TreeMap<String, Long> counts = new TreeMap<>();
      long n = 0;
      while (tags.hasNext()) {
        counts.merge(tags.next().toString(), 1L, Long::sum);
        n++;
      }
      OrcMap<Text, LongWritable> column = new OrcMap<>(OUTPUT.findSubtype("counts"));
      counts.forEach((tag, count) -> column.put(new Text(tag), new LongWritable(count)));
      row.setFieldValue("vendor", new Text(vendor));
      row.setFieldValue("tags", new LongWritable(n));
      row.setFieldValue("counts", (WritableComparable) column);
      out.collect(NullWritable.get(), row);
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    JobConf job = new JobConf(getConf(), VendorTagCounts.class);
    job.setJobName("vendor tag counts");
    job.setInputFormat(OrcInputFormat.class);
    FileInputFormat.setInputPaths(job, new Path(args[0]));
    job.setMapperClass(TagMapper.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(Text.class);
    job.setReducerClass(CountReducer.class);
    job.setNumReduceTasks(2);
    job.setOutputFormat(OrcOutputFormat.class);
    OrcConf.MAPRED_OUTPUT_SCHEMA.setString(job, OUTPUT.toString());
    job.setOutputKeyClass(NullWritable.class);
    job.setOutputValueClass(OrcStruct.class);
    FileOutputFormat.setOutputPath(job, new Path(args[1]));
    return JobClient.runJob(job).isSuccessful() ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new VendorTagCounts(), args));
  }
}
