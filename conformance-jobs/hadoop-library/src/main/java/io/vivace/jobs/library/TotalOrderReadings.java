package io.vivace.jobs.library;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.LineRecordReader;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.partition.InputSampler;
import org.apache.hadoop.mapreduce.lib.partition.TotalOrderPartitioner;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * A total order sort of sensor readings ({@code sensor temperature} per line) over three reduces:
 * the key is a class of the job's own with a raw comparator it registers itself
 * ({@code WritableComparator.define}), read by an input format of its own, sampled by
 * {@code InputSampler} into the partition file that {@code TotalOrderPartitioner} reads in every
 * map. Usage: {@code TotalOrderReadings <in> <out>}; the partition file goes beside the output.
 */
public class TotalOrderReadings extends Configured implements Tool {

  /** A reading, ordered by temperature, then sensor. Serialised as a vint then the sensor's Text. */
  public static class Reading implements WritableComparable<Reading> {
    int temperature;
    final Text sensor = new Text();

    static {
      WritableComparator.define(Reading.class, new RawOrder());
    }

    @Override
    public void write(DataOutput out) throws IOException {
      WritableUtils.writeVInt(out, temperature);
      sensor.write(out);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      temperature = WritableUtils.readVInt(in);
      sensor.readFields(in);
    }

    @Override
    public int compareTo(Reading o) {
      int byTemperature = Integer.compare(temperature, o.temperature);
      return byTemperature != 0 ? byTemperature : sensor.compareTo(o.sensor);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Reading r && compareTo(r) == 0;
    }

    @Override
    public int hashCode() {
      return temperature * 31 + sensor.hashCode();
    }

    @Override
    public String toString() {
      return sensor + "@" + temperature;
    }
  }

  /** The order of {@link Reading#compareTo}, on serialised readings. */
  public static class RawOrder extends WritableComparator {
    public RawOrder() {
      super(Reading.class);
    }

    @Override
    public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
      try {
        int t1 = readVInt(b1, s1);
        int t2 = readVInt(b2, s2);
        if (t1 != t2) {
          return Integer.compare(t1, t2);
        }
        int n1 = WritableUtils.decodeVIntSize(b1[s1]);
        int n2 = WritableUtils.decodeVIntSize(b2[s2]);
        return Text.Comparator.compareBytes(b1, s1 + n1, l1 - n1, b2, s2 + n2, l2 - n2);
      } catch (IOException e) {
        throw new IllegalArgumentException(e);
      }
    }
  }

  /** Reads {@code sensor temperature} lines as readings, the whole line as the value. */
  public static class ReadingInputFormat extends FileInputFormat<Reading, Text> {
    @Override
    public RecordReader<Reading, Text> createRecordReader(InputSplit split, TaskAttemptContext context) {
      return new RecordReader<>() {
        private final LineRecordReader lines = new LineRecordReader();
        private final Reading reading = new Reading();

        @Override
        public void initialize(InputSplit s, TaskAttemptContext c) throws IOException {
          lines.initialize(s, c);
        }

        @Override
        public boolean nextKeyValue() throws IOException {
          if (!lines.nextKeyValue()) {
            return false;
          }
          String[] fields = lines.getCurrentValue().toString().split(" ");
          reading.sensor.set(fields[0]);
          reading.temperature = Integer.parseInt(fields[1]);
          return true;
        }

        @Override
        public Reading getCurrentKey() {
          return reading;
        }

        @Override
        public Text getCurrentValue() {
          return lines.getCurrentValue();
        }

        @Override
        public float getProgress() throws IOException {
          return lines.getProgress();
        }

        @Override
        public void close() throws IOException {
          lines.close();
        }
      };
    }
  }

  /** Writes each reading once per line it came from. */
  public static class Lines extends Reducer<Reading, Text, Reading, Text> {
    @Override
    protected void reduce(Reading reading, Iterable<Text> lines, Context context) throws IOException, InterruptedException {
      for (Text line : lines) {
        context.write(reading, line);
      }
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Job job = Job.getInstance(getConf(), "total order sort of readings");
    job.setJarByClass(TotalOrderReadings.class);
    job.setInputFormatClass(ReadingInputFormat.class);
    job.setMapperClass(Mapper.class);
    job.setReducerClass(Lines.class);
    job.setNumReduceTasks(3);
    job.setMapOutputKeyClass(Reading.class);
    job.setMapOutputValueClass(Text.class);
    job.setOutputKeyClass(Reading.class);
    job.setOutputValueClass(Text.class);
    job.setPartitionerClass(TotalOrderPartitioner.class);
    FileInputFormat.addInputPath(job, new Path(args[0]));
    Path out = new Path(args[1]);
    FileOutputFormat.setOutputPath(job, out);
    Path partitions = new Path(out.getParent(), out.getName() + "-partitions");
    TotalOrderPartitioner.setPartitionFile(job.getConfiguration(), partitions);
    InputSampler.writePartitionFile(job, new InputSampler.IntervalSampler<Reading, Text>(0.05, 10));
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new TotalOrderReadings(), args));
  }
}
