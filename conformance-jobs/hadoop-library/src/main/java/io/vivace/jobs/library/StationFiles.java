package io.vivace.jobs.library;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.MapFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.MapFileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.lib.partition.HashPartitioner;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * SequenceFiles and MapFiles of the job's own types, in three jobs: weather lines
 * ({@code station year temperature}) to a SequenceFile of {@link Station} keys and
 * {@link Observation} values; that SequenceFile to a MapFile of each station's warmest
 * observation over two reduces; then a map-only job looking up every input station in the MapFile
 * ({@code MapFileOutputFormat.getEntry}) from its mappers. Output folders {@code seq}, {@code map}
 * and {@code lookup} under the output folder. Usage: {@code StationFiles <in> <out>}.
 */
public class StationFiles extends Configured implements Tool {

  /** A weather station, ordered by id. */
  public static class Station implements WritableComparable<Station> {
    final Text id = new Text();

    @Override
    public void write(DataOutput out) throws IOException {
      id.write(out);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      id.readFields(in);
    }

    @Override
    public int compareTo(Station o) {
      return id.compareTo(o.id);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Station s && id.equals(s.id);
    }

    @Override
    public int hashCode() {
      return id.hashCode();
    }

    @Override
    public String toString() {
      return id.toString();
    }
  }

  /** A year's temperature at a station. */
  public static class Observation implements Writable {
    int year;
    int temperature;

    @Override
    public void write(DataOutput out) throws IOException {
      out.writeInt(year);
      out.writeInt(temperature);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      year = in.readInt();
      temperature = in.readInt();
    }

    @Override
    public String toString() {
      return year + ":" + temperature;
    }
  }

  public static class Parse extends Mapper<LongWritable, Text, Station, Observation> {
    private final Station station = new Station();
    private final Observation observation = new Observation();

    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      String[] f = line.toString().split(" ");
      station.id.set(f[0]);
      observation.year = Integer.parseInt(f[1]);
      observation.temperature = Integer.parseInt(f[2]);
      context.write(station, observation);
    }
  }

  public static class Warmest extends Reducer<Station, Observation, Station, Observation> {
    private final Observation warmest = new Observation();

    @Override
    protected void reduce(Station station, Iterable<Observation> observations, Context context)
        throws IOException, InterruptedException {
      warmest.temperature = Integer.MIN_VALUE;
      for (Observation o : observations) {
        if (o.temperature > warmest.temperature
            || (o.temperature == warmest.temperature && o.year < warmest.year)) {
          warmest.temperature = o.temperature;
          warmest.year = o.year;
        }
      }
      context.write(station, warmest);
    }
  }

  /** Looks each line's station up in the MapFile of the second job. */
  public static class Lookup extends Mapper<LongWritable, Text, Text, Text> {
    private MapFile.Reader[] readers;
    private final Station station = new Station();
    private final Observation found = new Observation();
    private final Text result = new Text();

    @Override
    protected void setup(Context context) throws IOException {
      readers = MapFileOutputFormat.getReaders(new Path(context.getConfiguration().get("station.files.map")),
          context.getConfiguration());
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      String[] f = line.toString().split(" ");
      station.id.set(f[0]);
      Writable entry = MapFileOutputFormat.getEntry(readers, new HashPartitioner<Station, Observation>(), station, found);
      result.set(entry == null ? "missing" : "warmest " + found);
      context.write(line, result);
    }

    @Override
    protected void cleanup(Context context) throws IOException {
      for (MapFile.Reader reader : readers) {
        reader.close();
      }
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Path in = new Path(args[0]);
    Path out = new Path(args[1]);
    Path seq = new Path(out, "seq");
    Path map = new Path(out, "map");

    Job toSequenceFile = Job.getInstance(getConf(), "stations to a SequenceFile");
    toSequenceFile.setJarByClass(StationFiles.class);
    toSequenceFile.setMapperClass(Parse.class);
    toSequenceFile.setNumReduceTasks(0);
    toSequenceFile.setOutputFormatClass(SequenceFileOutputFormat.class);
    toSequenceFile.setOutputKeyClass(Station.class);
    toSequenceFile.setOutputValueClass(Observation.class);
    FileInputFormat.addInputPath(toSequenceFile, in);
    FileOutputFormat.setOutputPath(toSequenceFile, seq);
    if (!toSequenceFile.waitForCompletion(true)) {
      return 1;
    }

    Job toMapFile = Job.getInstance(getConf(), "warmest observation per station to a MapFile");
    toMapFile.setJarByClass(StationFiles.class);
    toMapFile.setInputFormatClass(SequenceFileInputFormat.class);
    toMapFile.setMapperClass(Mapper.class);
    toMapFile.setReducerClass(Warmest.class);
    toMapFile.setNumReduceTasks(2);
    toMapFile.setOutputFormatClass(MapFileOutputFormat.class);
    toMapFile.setOutputKeyClass(Station.class);
    toMapFile.setOutputValueClass(Observation.class);
    FileInputFormat.addInputPath(toMapFile, seq);
    FileOutputFormat.setOutputPath(toMapFile, map);
    if (!toMapFile.waitForCompletion(true)) {
      return 1;
    }

    Job lookup = Job.getInstance(getConf(), "stations looked up in the MapFile");
    lookup.getConfiguration().set("station.files.map", map.toString());
    lookup.setJarByClass(StationFiles.class);
    lookup.setInputFormatClass(TextInputFormat.class);
    lookup.setMapperClass(Lookup.class);
    lookup.setNumReduceTasks(0);
    lookup.setOutputFormatClass(TextOutputFormat.class);
    lookup.setOutputKeyClass(Text.class);
    lookup.setOutputValueClass(Text.class);
    FileInputFormat.addInputPath(lookup, in);
    FileOutputFormat.setOutputPath(lookup, new Path(out, "lookup"));
    return lookup.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new StationFiles(), args));
  }
}
