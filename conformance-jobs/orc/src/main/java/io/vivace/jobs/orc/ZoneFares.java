package io.vivace.jobs.orc;

import java.io.IOException;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.apache.orc.OrcConf;
import org.apache.orc.TypeDescription;
import org.apache.orc.mapred.OrcKey;
import org.apache.orc.mapred.OrcStruct;
import org.apache.orc.mapred.OrcValue;
import org.apache.orc.mapreduce.OrcInputFormat;
import org.apache.orc.mapreduce.OrcOutputFormat;

/**
 * Fares per vendor and zone, the way ORC's MapReduce guide shuffles structs: trips read with
 * {@code OrcInputFormat}, an {@code OrcKey} (vendor, zone) and an {@code OrcValue} (trips, fares,
 * tips, the largest fare) through the shuffle (their schemas in {@code orc.mapred.map.output.key.schema}
 * and {@code orc.mapred.map.output.value.schema}), folded by a combiner, written as {@code OrcStruct}s
 * with {@code OrcOutputFormat} by three reduces. Usage: {@code ZoneFares <in> <out>}.
 */
public class ZoneFares extends Configured implements Tool {

  static final TypeDescription KEY = TypeDescription.fromString("struct<vendor:string,zone:int>");
  static final TypeDescription TOTALS = TypeDescription.fromString(
      "struct<trips:bigint,fare_cents:bigint,tip_cents:bigint,max_fare_cents:bigint>");
  static final TypeDescription OUTPUT = TypeDescription.fromString(
      "struct<vendor:string,zone:int,trips:bigint,fare_cents:bigint,tip_cents:bigint,max_fare_cents:bigint,mean_fare_cents:bigint>");

  public static class TripMapper extends Mapper<NullWritable, OrcStruct, OrcKey, OrcValue> {
    private final OrcStruct key = (OrcStruct) OrcStruct.createValue(KEY);
    private final OrcKey keyWrapper = new OrcKey(key);
    private final OrcValue valueWrapper = new OrcValue();

    @Override
    protected void map(NullWritable none, OrcStruct trip, Context context) throws IOException, InterruptedException {
      key.setFieldValue("vendor", trip.getFieldValue("vendor"));
      key.setFieldValue("zone", trip.getFieldValue("zone"));
      long fare = ((LongWritable) trip.getFieldValue("fare_cents")).get();
      long tip = ((LongWritable) trip.getFieldValue("tip_cents")).get();
      valueWrapper.value = totals(1, fare, tip, fare);
      context.write(keyWrapper, valueWrapper);
    }
  }

  static OrcStruct totals(long trips, long fares, long tips, long maxFare) {
    OrcStruct t = (OrcStruct) OrcStruct.createValue(TOTALS);
    t.setFieldValue("trips", new LongWritable(trips));
    t.setFieldValue("fare_cents", new LongWritable(fares));
    t.setFieldValue("tip_cents", new LongWritable(tips));
    t.setFieldValue("max_fare_cents", new LongWritable(maxFare));
    return t;
  }

  static long field(OrcStruct s, String name) {
    return ((LongWritable) s.getFieldValue(name)).get();
  }

  static OrcStruct fold(Iterable<OrcValue> values) {
    long trips = 0;
    long fares = 0;
    long tips = 0;
    long maxFare = 0;
    for (OrcValue v : values) {
      OrcStruct t = (OrcStruct) v.value;
      trips += field(t, "trips");
      fares += field(t, "fare_cents");
      tips += field(t, "tip_cents");
      maxFare = Math.max(maxFare, field(t, "max_fare_cents"));
    }
    return totals(trips, fares, tips, maxFare);
  }

  public static class TotalsCombiner extends Reducer<OrcKey, OrcValue, OrcKey, OrcValue> {
    @Override
    protected void reduce(OrcKey key, Iterable<OrcValue> values, Context context) throws IOException, InterruptedException {
      context.write(key, new OrcValue(fold(values)));
    }
  }

  public static class FaresReducer extends Reducer<OrcKey, OrcValue, NullWritable, OrcStruct> {
    private final OrcStruct row = (OrcStruct) OrcStruct.createValue(OUTPUT);

    @Override
    protected void reduce(OrcKey key, Iterable<OrcValue> values, Context context) throws IOException, InterruptedException {
      OrcStruct k = (OrcStruct) key.key;
      OrcStruct t = fold(values);
      row.setFieldValue("vendor", new Text((Text) k.getFieldValue("vendor")));
      row.setFieldValue("zone", new IntWritable(((IntWritable) k.getFieldValue("zone")).get()));
      for (String name : new String[] {"trips", "fare_cents", "tip_cents", "max_fare_cents"}) {
        row.setFieldValue(name, t.getFieldValue(name));
      }
      row.setFieldValue("mean_fare_cents", new LongWritable(field(t, "fare_cents") / field(t, "trips")));
      context.write(NullWritable.get(), row);
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    OrcConf.MAPRED_SHUFFLE_KEY_SCHEMA.setString(getConf(), KEY.toString());
    OrcConf.MAPRED_SHUFFLE_VALUE_SCHEMA.setString(getConf(), TOTALS.toString());
    OrcConf.MAPRED_OUTPUT_SCHEMA.setString(getConf(), OUTPUT.toString());
    Job job = Job.getInstance(getConf(), "zone fares");
    job.setJarByClass(ZoneFares.class);
    job.setInputFormatClass(OrcInputFormat.class);
    FileInputFormat.setInputPaths(job, new Path(args[0]));
    job.setMapperClass(TripMapper.class);
    job.setMapOutputKeyClass(OrcKey.class);
    job.setMapOutputValueClass(OrcValue.class);
    job.setCombinerClass(TotalsCombiner.class);
    job.setReducerClass(FaresReducer.class);
    job.setNumReduceTasks(3);
    job.setOutputFormatClass(OrcOutputFormat.class);
    job.setOutputKeyClass(NullWritable.class);
    job.setOutputValueClass(OrcStruct.class);
    FileOutputFormat.setOutputPath(job, new Path(args[1]));
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new ZoneFares(), args));
  }
}
