package io.vivace.jobs.orc;

import java.io.IOException;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.FileInputFormat;
import org.apache.hadoop.mapred.FileOutputFormat;
import org.apache.hadoop.mapred.JobClient;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.Mapper;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.apache.orc.OrcConf;
import org.apache.orc.mapred.OrcList;
import org.apache.orc.mapred.OrcOutputFormat;
import org.apache.orc.mapred.OrcStruct;

/**
 * Converts trips from CSV ({@code vendor,zone,day,passengers,fare,tip,tag;tag...}) to ORC in the old
 * API: a map-only job writing {@code OrcStruct}s (with a list column) through
 * {@code org.apache.orc.mapred.OrcOutputFormat}, the schema in {@code orc.mapred.output.schema}.
 * Usage: {@code TripsToOrc <in> <out>}.
 */
public class TripsToOrc extends Configured implements Tool {

  public static class CsvMapper extends MapReduceBase implements Mapper<LongWritable, Text, NullWritable, OrcStruct> {
    private final OrcStruct trip = (OrcStruct) OrcStruct.createValue(Trips.SCHEMA);

    @Override
    public void map(LongWritable offset, Text line, OutputCollector<NullWritable, OrcStruct> out, Reporter reporter)
        throws IOException {
      String[] f = line.toString().split(",", -1);
      trip.setFieldValue("vendor", new Text(f[0]));
      trip.setFieldValue("zone", new IntWritable(Integer.parseInt(f[1])));
      trip.setFieldValue("day", new IntWritable(Integer.parseInt(f[2])));
      trip.setFieldValue("passengers", new IntWritable(Integer.parseInt(f[3])));
      trip.setFieldValue("fare_cents", new LongWritable(Long.parseLong(f[4])));
      trip.setFieldValue("tip_cents", f[5].isEmpty() ? null : new LongWritable(Long.parseLong(f[5])));
      OrcList<Text> tags = new OrcList<>(Trips.SCHEMA.findSubtype("tags"));
      for (String tag : f[6].isEmpty() ? new String[0] : f[6].split(";")) {
        tags.add(new Text(tag));
      }
      trip.setFieldValue("tags", tags);
      out.collect(NullWritable.get(), trip);
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    JobConf job = new JobConf(getConf(), TripsToOrc.class);
    job.setJobName("trips to orc");
    FileInputFormat.setInputPaths(job, new Path(args[0]));
    job.setMapperClass(CsvMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputFormat(OrcOutputFormat.class);
    OrcConf.MAPRED_OUTPUT_SCHEMA.setString(job, Trips.SCHEMA.toString());
    job.setOutputKeyClass(NullWritable.class);
    job.setOutputValueClass(OrcStruct.class);
    FileOutputFormat.setOutputPath(job, new Path(args[1]));
    return JobClient.runJob(job).isSuccessful() ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new TripsToOrc(), args));
  }
}
