package io.vivace.jobs.avro;

import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.mapred.AvroKey;
import org.apache.avro.mapred.AvroValue;
import org.apache.avro.mapreduce.AvroJob;
import org.apache.avro.mapreduce.AvroKeyInputFormat;
import org.apache.avro.mapreduce.AvroKeyOutputFormat;
import org.apache.avro.mapreduce.AvroKeyValueOutputFormat;
import org.apache.avro.mapreduce.AvroMultipleOutputs;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Users per region and decade of age with generic records only (no generated class; the data model
 * is {@code GenericData}): the users' files are read through a projection of their schema, the map
 * output key and value are generic records, a combiner folds the values, and the reducer writes
 * (key, value) records with {@code AvroKeyValueOutputFormat} and, through {@code AvroMultipleOutputs},
 * one summary file per region under {@code by-region/}. Usage: {@code UsersByRegionAndDecade <in> <out>}.
 */
public class UsersByRegionAndDecade extends Configured implements Tool {

  /** The fields of the users' schema this job reads: Avro resolves the files' schema to it. */
  static final Schema USER_PROJECTION = new Schema.Parser().parse(
      "{\"type\":\"record\",\"name\":\"User\",\"namespace\":\"io.vivace.jobs.avro.model\",\"fields\":["
          + "{\"name\":\"name\",\"type\":\"string\"},"
          + "{\"name\":\"region\",\"type\":{\"type\":\"enum\",\"name\":\"Region\",\"symbols\":[\"NORTH\",\"SOUTH\",\"EAST\",\"WEST\"]}},"
          + "{\"name\":\"age\",\"type\":\"int\"}]}");
  static final Schema REGION_DECADE = new Schema.Parser().parse(
      "{\"type\":\"record\",\"name\":\"RegionDecade\",\"namespace\":\"io.vivace.jobs.avro.generic\",\"fields\":["
          + "{\"name\":\"region\",\"type\":\"string\"},{\"name\":\"decade\",\"type\":\"int\"}]}");
  static final Schema AGE_STATS = new Schema.Parser().parse(
      "{\"type\":\"record\",\"name\":\"AgeStats\",\"namespace\":\"io.vivace.jobs.avro.generic\",\"fields\":["
          + "{\"name\":\"users\",\"type\":\"long\"},{\"name\":\"total_age\",\"type\":\"long\"},"
          + "{\"name\":\"youngest\",\"type\":\"int\"},{\"name\":\"oldest\",\"type\":\"int\"}]}");
  static final Schema REGION_LINE = new Schema.Parser().parse(
      "{\"type\":\"record\",\"name\":\"RegionLine\",\"namespace\":\"io.vivace.jobs.avro.generic\",\"fields\":["
          + "{\"name\":\"decade\",\"type\":\"int\"},{\"name\":\"users\",\"type\":\"long\"},"
          + "{\"name\":\"mean_age\",\"type\":\"double\"}]}");

  public static class DecadeMapper extends Mapper<AvroKey<GenericRecord>, NullWritable, AvroKey<GenericRecord>, AvroValue<GenericRecord>> {
    @Override
    protected void map(AvroKey<GenericRecord> user, NullWritable none, Context context) throws IOException, InterruptedException {
      int age = (Integer) user.datum().get("age");
      GenericRecord key = new GenericData.Record(REGION_DECADE);
      key.put("region", user.datum().get("region").toString());
      key.put("decade", age / 10 * 10);
      context.write(new AvroKey<>(key), new AvroValue<>(stats(1, age, age, age)));
    }
  }

  static GenericRecord stats(long users, long totalAge, int youngest, int oldest) {
    GenericRecord s = new GenericData.Record(AGE_STATS);
    s.put("users", users);
    s.put("total_age", totalAge);
    s.put("youngest", youngest);
    s.put("oldest", oldest);
    return s;
  }

  static GenericRecord fold(Iterable<AvroValue<GenericRecord>> values) {
    long users = 0;
    long total = 0;
    int youngest = Integer.MAX_VALUE;
    int oldest = Integer.MIN_VALUE;
    for (AvroValue<GenericRecord> value : values) {
      GenericRecord s = value.datum();
      users += (Long) s.get("users");
      total += (Long) s.get("total_age");
      youngest = Math.min(youngest, (Integer) s.get("youngest"));
      oldest = Math.max(oldest, (Integer) s.get("oldest"));
    }
    return stats(users, total, youngest, oldest);
  }

  public static class StatsCombiner
      extends Reducer<AvroKey<GenericRecord>, AvroValue<GenericRecord>, AvroKey<GenericRecord>, AvroValue<GenericRecord>> {
    @Override
    protected void reduce(AvroKey<GenericRecord> key, Iterable<AvroValue<GenericRecord>> values, Context context)
        throws IOException, InterruptedException {
      context.write(key, new AvroValue<>(fold(values)));
    }
  }

  public static class StatsReducer
      extends Reducer<AvroKey<GenericRecord>, AvroValue<GenericRecord>, AvroKey<GenericRecord>, AvroValue<GenericRecord>> {
    private AvroMultipleOutputs outputs;

    @Override
    protected void setup(Context context) {
      outputs = new AvroMultipleOutputs(context);
    }

    @Override
    protected void reduce(AvroKey<GenericRecord> key, Iterable<AvroValue<GenericRecord>> values, Context context)
        throws IOException, InterruptedException {
      GenericRecord stats = fold(values);
      context.write(key, new AvroValue<>(stats));
      GenericRecord line = new GenericData.Record(REGION_LINE);
      long users = (Long) stats.get("users");
      line.put("decade", key.datum().get("decade"));
      line.put("users", users);
      line.put("mean_age", (Long) stats.get("total_age") / (double) users);
      outputs.write("regions", new AvroKey<>(line), NullWritable.get(), "by-region/" + key.datum().get("region"));
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      outputs.close();
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Job job = Job.getInstance(getConf(), "users by region and decade");
    job.setJarByClass(UsersByRegionAndDecade.class);
    FileInputFormat.setInputPaths(job, new Path(args[0]));
    FileOutputFormat.setOutputPath(job, new Path(args[1]));
    AvroJob.setDataModelClass(job, GenericData.class);

    job.setInputFormatClass(AvroKeyInputFormat.class);
    AvroJob.setInputKeySchema(job, USER_PROJECTION);
    job.setMapperClass(DecadeMapper.class);
    AvroJob.setMapOutputKeySchema(job, REGION_DECADE);
    AvroJob.setMapOutputValueSchema(job, AGE_STATS);
    job.setCombinerClass(StatsCombiner.class);

    job.setReducerClass(StatsReducer.class);
    job.setOutputFormatClass(AvroKeyValueOutputFormat.class);
    AvroJob.setOutputKeySchema(job, REGION_DECADE);
    AvroJob.setOutputValueSchema(job, AGE_STATS);
    AvroMultipleOutputs.addNamedOutput(job, "regions", AvroKeyOutputFormat.class, REGION_LINE);
    AvroMultipleOutputs.setCountersEnabled(job, true);
    job.setNumReduceTasks(3);
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new UsersByRegionAndDecade(), args));
  }
}
