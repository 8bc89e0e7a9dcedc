package io.vivace.jobs.avro;

import io.vivace.jobs.avro.model.MonthlySummary;
import io.vivace.jobs.avro.model.StationMonth;
import io.vivace.jobs.avro.model.TemperatureStats;
import java.io.IOException;
import org.apache.avro.mapred.AvroKey;
import org.apache.avro.mapred.AvroValue;
import org.apache.avro.mapreduce.AvroJob;
import org.apache.avro.mapreduce.AvroKeyOutputFormat;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
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

/**
 * Monthly temperature statistics per weather station, with specific records of the job jar as map
 * output key ({@link StationMonth}, {@code AvroJob.setMapOutputKeySchema}) and value
 * ({@link TemperatureStats}), folded by a combiner and written as {@link MonthlySummary} records
 * with {@code AvroKeyOutputFormat}. Input lines are {@code station,yyyy-mm-dd,tenths of a degree}.
 * This is the shape that once failed on Vivace with "keySerializer is null": Avro's serialisation,
 * which {@code AvroJob} adds to {@code io.serializations}, comes from {@code -libjars}.
 * Usage: {@code StationMonthlyStats <in> <out>}.
 */
public class StationMonthlyStats extends Configured implements Tool {

  public static class ReadingMapper extends Mapper<LongWritable, Text, AvroKey<StationMonth>, AvroValue<TemperatureStats>> {
    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      String[] fields = line.toString().split(",");
      String[] date = fields[1].split("-");
      int tenths = Integer.parseInt(fields[2]);
      StationMonth month = new StationMonth(fields[0], Integer.parseInt(date[0]), Integer.parseInt(date[1]));
      TemperatureStats one = new TemperatureStats(1L, (long) tenths, tenths, tenths);
      context.write(new AvroKey<>(month), new AvroValue<>(one));
    }
  }

  /** Adds up the statistics of one station's month. */
  static TemperatureStats fold(Iterable<AvroValue<TemperatureStats>> values) {
    long count = 0;
    long sum = 0;
    int min = Integer.MAX_VALUE;
    int max = Integer.MIN_VALUE;
    for (AvroValue<TemperatureStats> value : values) {
      TemperatureStats s = value.datum();
      count += s.getCount();
      sum += s.getSum();
      min = Math.min(min, s.getMin());
      max = Math.max(max, s.getMax());
    }
    return new TemperatureStats(count, sum, min, max);
  }

  public static class StatsCombiner
      extends Reducer<AvroKey<StationMonth>, AvroValue<TemperatureStats>, AvroKey<StationMonth>, AvroValue<TemperatureStats>> {
    @Override
    protected void reduce(AvroKey<StationMonth> key, Iterable<AvroValue<TemperatureStats>> values, Context context)
        throws IOException, InterruptedException {
      context.write(key, new AvroValue<>(fold(values)));
    }
  }

  public static class SummaryReducer
      extends Reducer<AvroKey<StationMonth>, AvroValue<TemperatureStats>, AvroKey<MonthlySummary>, NullWritable> {
    @Override
    protected void reduce(AvroKey<StationMonth> key, Iterable<AvroValue<TemperatureStats>> values, Context context)
        throws IOException, InterruptedException {
      StationMonth month = key.datum();
      TemperatureStats s = fold(values);
      MonthlySummary summary = MonthlySummary.newBuilder()
          .setStation(month.getStation())
          .setYear(month.getYear())
          .setMonth(month.getMonth())
          .setReadings(s.getCount())
          .setMeanTenths(Math.floorDiv(s.getSum(), s.getCount()))
          .setMinTenths(s.getMin())
          .setMaxTenths(s.getMax())
          .build();
      context.write(new AvroKey<>(summary), NullWritable.get());
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Job job = Job.getInstance(getConf(), "station monthly stats");
    job.setJarByClass(StationMonthlyStats.class);
    FileInputFormat.setInputPaths(job, new Path(args[0]));
    FileOutputFormat.setOutputPath(job, new Path(args[1]));

    job.setMapperClass(ReadingMapper.class);
    AvroJob.setMapOutputKeySchema(job, StationMonth.getClassSchema());
    AvroJob.setMapOutputValueSchema(job, TemperatureStats.getClassSchema());
    job.setCombinerClass(StatsCombiner.class);

    job.setReducerClass(SummaryReducer.class);
    job.setOutputFormatClass(AvroKeyOutputFormat.class);
    AvroJob.setOutputKeySchema(job, MonthlySummary.getClassSchema());
    job.setOutputValueClass(NullWritable.class);
    job.setNumReduceTasks(3);
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new StationMonthlyStats(), args));
  }
}
