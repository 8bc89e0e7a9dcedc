package io.vivace.jobs.parquet;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.apache.parquet.avro.AvroParquetInputFormat;
import org.apache.parquet.avro.AvroParquetOutputFormat;
import org.apache.parquet.hadoop.ParquetOutputFormat;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Units sold per product and day with parquet-avro: sales read as Avro generic records with
 * {@code AvroParquetInputFormat} (a requested projection of two columns), per-day totals folded by
 * a combiner, and one Avro record per product (a nested array of days) written with
 * {@code AvroParquetOutputFormat}, gzip-compressed, by three reduces. Map output values are
 * {@code day:units} pairs, comma-separated. Usage: {@code ProductUnitsByDay <in> <out>}.
 */
public class ProductUnitsByDay extends Configured implements Tool {

  static final Schema PROJECTION = SchemaBuilder.record("sale").fields()
      .requiredString("product").requiredInt("day").requiredInt("quantity").endRecord();
  static final Schema DAY_UNITS = SchemaBuilder.record("DayUnits").namespace("io.vivace.jobs.parquet")
      .fields().requiredInt("day").requiredLong("units").endRecord();
  static final Schema PRODUCT = SchemaBuilder.record("ProductUnits").namespace("io.vivace.jobs.parquet")
      .fields().requiredString("product").requiredLong("units")
      .name("by_day").type().array().items(DAY_UNITS).noDefault()
      .endRecord();

  public static class SaleMapper extends Mapper<Void, GenericRecord, Text, Text> {
    private final Text product = new Text();
    private final Text dayUnits = new Text();

    @Override
    protected void map(Void key, GenericRecord sale, Context context) throws IOException, InterruptedException {
      product.set(sale.get("product").toString());
      dayUnits.set(sale.get("day") + ":" + sale.get("quantity"));
      context.write(product, dayUnits);
    }
  }

  /** The per-day units of {@code values}, in day order. */
  static TreeMap<Integer, Long> fold(Iterable<Text> values) {
    TreeMap<Integer, Long> byDay = new TreeMap<>();
    for (Text value : values) {
      for (String pair : value.toString().split(",")) {
        int colon = pair.indexOf(':');
        byDay.merge(Integer.parseInt(pair.substring(0, colon)), Long.parseLong(pair.substring(colon + 1)), Long::sum);
      }
    }
    return byDay;
  }

  public static class DayCombiner extends Reducer<Text, Text, Text, Text> {
    @Override
    protected void reduce(Text product, Iterable<Text> values, Context context) throws IOException, InterruptedException {
      StringBuilder folded = new StringBuilder();
      for (Map.Entry<Integer, Long> e : fold(values).entrySet()) {
        folded.append(folded.length() == 0 ? "" : ",").append(e.getKey()).append(':').append(e.getValue());
      }
      context.write(product, new Text(folded.toString()));
    }
  }

  public static class ProductReducer extends Reducer<Text, Text, Void, GenericRecord> {
    @Override
    protected void reduce(Text product, Iterable<Text> values, Context context) throws IOException, InterruptedException {
      List<GenericRecord> days = new ArrayList<>();
      long units = 0;
      for (Map.Entry<Integer, Long> e : fold(values).entrySet()) {
        GenericRecord day = new GenericData.Record(DAY_UNITS);
        day.put("day", e.getKey());
        day.put("units", e.getValue());
        days.add(day);
        units += e.getValue();
      }
      GenericRecord record = new GenericData.Record(PRODUCT);
      record.put("product", product.toString());
      record.put("units", units);
      record.put("by_day", days);
      context.write(null, record);
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Job job = Job.getInstance(getConf(), "product units by day");
    job.setJarByClass(ProductUnitsByDay.class);
    job.setInputFormatClass(AvroParquetInputFormat.class);
    AvroParquetInputFormat.setRequestedProjection(job, PROJECTION);
    FileInputFormat.setInputPaths(job, new Path(args[0]));
    job.setMapperClass(SaleMapper.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(Text.class);
    job.setCombinerClass(DayCombiner.class);
    job.setReducerClass(ProductReducer.class);
    job.setNumReduceTasks(3);
    job.setOutputFormatClass(AvroParquetOutputFormat.class);
    AvroParquetOutputFormat.setSchema(job, PRODUCT);
    ParquetOutputFormat.setCompression(job, CompressionCodecName.GZIP);
    job.setOutputKeyClass(Void.class);
    job.setOutputValueClass(GenericRecord.class);
    FileOutputFormat.setOutputPath(job, new Path(args[1]));
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new ProductUnitsByDay(), args));
  }
}
