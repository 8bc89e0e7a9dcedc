package io.vivace.jobs.avro;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import org.apache.avro.mapred.AvroKey;
import org.apache.avro.mapred.AvroValue;
import org.apache.avro.mapreduce.AvroJob;
import org.apache.avro.mapreduce.AvroKeyOutputFormat;
import org.apache.avro.reflect.ReflectData;
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
 * Visits per page and day with reflect records: plain Java classes of the job jar whose Avro schemas
 * {@code ReflectData} derives ({@code AvroJob.setDataModelClass(job, ReflectData.class)}), as map
 * output key and value and as output. Input lines are {@code day,user,page,milliseconds}.
 * Usage: {@code PageVisitStats <in> <out>}.
 */
public class PageVisitStats extends Configured implements Tool {

  /** A page on a day: the map output key. The default partitioner needs a stable hash code. */
  public static class PageDay {
    String page;
    int day;

    public PageDay() {}

    PageDay(String page, int day) {
      this.page = page;
      this.day = day;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof PageDay p && p.day == day && p.page.equals(page);
    }

    @Override
    public int hashCode() {
      return Objects.hash(page, day);
    }
  }

  /** One visit of a page. */
  public static class Visit {
    String user;
    int millis;

    public Visit() {}

    Visit(String user, int millis) {
      this.user = user;
      this.millis = millis;
    }
  }

  /** What the job writes for a page and day. */
  public static class PageStats {
    String page;
    int day;
    int visits;
    long totalMillis;
    int longestMillis;
    List<String> users;
  }

  public static class VisitMapper extends Mapper<LongWritable, Text, AvroKey<PageDay>, AvroValue<Visit>> {
    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      String[] f = line.toString().split(",");
      context.write(new AvroKey<>(new PageDay(f[2], Integer.parseInt(f[0]))),
          new AvroValue<>(new Visit(f[1], Integer.parseInt(f[3]))));
    }
  }

  public static class StatsReducer extends Reducer<AvroKey<PageDay>, AvroValue<Visit>, AvroKey<PageStats>, NullWritable> {
    @Override
    protected void reduce(AvroKey<PageDay> key, Iterable<AvroValue<Visit>> visits, Context context)
        throws IOException, InterruptedException {
      PageStats stats = new PageStats();
      stats.page = key.datum().page;
      stats.day = key.datum().day;
      TreeSet<String> users = new TreeSet<>();
      for (AvroValue<Visit> v : visits) {
        stats.visits++;
        stats.totalMillis += v.datum().millis;
        stats.longestMillis = Math.max(stats.longestMillis, v.datum().millis);
        users.add(v.datum().user);
      }
      stats.users = new ArrayList<>(users);
      context.write(new AvroKey<>(stats), NullWritable.get());
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Job job = Job.getInstance(getConf(), "page visit stats");
    job.setJarByClass(PageVisitStats.class);
    FileInputFormat.setInputPaths(job, new Path(args[0]));
    FileOutputFormat.setOutputPath(job, new Path(args[1]));
    AvroJob.setDataModelClass(job, ReflectData.class);

    job.setMapperClass(VisitMapper.class);
    AvroJob.setMapOutputKeySchema(job, ReflectData.get().getSchema(PageDay.class));
    AvroJob.setMapOutputValueSchema(job, ReflectData.get().getSchema(Visit.class));

    job.setReducerClass(StatsReducer.class);
    job.setOutputFormatClass(AvroKeyOutputFormat.class);
    AvroJob.setOutputKeySchema(job, ReflectData.get().getSchema(PageStats.class));
    job.setOutputValueClass(NullWritable.class);
    job.setNumReduceTasks(3);
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new PageVisitStats(), args));
  }
}
