package io.vivace.jobs.library;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.Serialization;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.hadoop.io.serializer.WritableSerialization;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Counts points ({@code x y} per line) with a map output key that is a plain Java class, not a
 * {@code Writable}: its {@link Serialization} and raw comparator come from the job jar and are
 * registered in {@code io.serializations}. Usage: {@code CustomSerializationCount <in> <out>}.
 */
public class CustomSerializationCount extends Configured implements Tool {

  /** A point; its serialised form is x then y, each a big-endian int. */
  public static final class Point {
    int x;
    int y;
  }

  /** Hadoop's {@link Serialization} of {@link Point}. */
  public static class PointSerialization implements Serialization<Point> {
    @Override
    public boolean accept(Class<?> c) {
      return c == Point.class;
    }

    @Override
    public Serializer<Point> getSerializer(Class<Point> c) {
      return new Serializer<>() {
        private DataOutputStream out;

        @Override
        public void open(OutputStream stream) {
          out = new DataOutputStream(stream);
        }

        @Override
        public void serialize(Point p) throws IOException {
          out.writeInt(p.x);
          out.writeInt(p.y);
        }

        @Override
        public void close() throws IOException {
          out.close();
        }
      };
    }

    @Override
    public Deserializer<Point> getDeserializer(Class<Point> c) {
      return new Deserializer<>() {
        private DataInputStream in;

        @Override
        public void open(InputStream stream) {
          in = new DataInputStream(stream);
        }

        @Override
        public Point deserialize(Point reuse) throws IOException {
          Point p = reuse != null ? reuse : new Point();
          p.x = in.readInt();
          p.y = in.readInt();
          return p;
        }

        @Override
        public void close() throws IOException {
          in.close();
        }
      };
    }
  }

  /** Orders points by x, then y, on their serialised bytes. */
  public static class PointComparator implements RawComparator<Point> {
    @Override
    public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
      int byX = Integer.compare(WritableComparator.readInt(b1, s1), WritableComparator.readInt(b2, s2));
      return byX != 0 ? byX : Integer.compare(WritableComparator.readInt(b1, s1 + 4), WritableComparator.readInt(b2, s2 + 4));
    }

    @Override
    public int compare(Point a, Point b) {
      int byX = Integer.compare(a.x, b.x);
      return byX != 0 ? byX : Integer.compare(a.y, b.y);
    }
  }

  public static class PointMapper extends Mapper<LongWritable, Text, Point, IntWritable> {
    private final Point point = new Point();
    private final IntWritable one = new IntWritable(1);

    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      String[] xy = line.toString().trim().split("\\s+");
      point.x = Integer.parseInt(xy[0]);
      point.y = Integer.parseInt(xy[1]);
      context.write(point, one);
    }
  }

  public static class PointCounter extends Reducer<Point, IntWritable, Text, IntWritable> {
    private final Text name = new Text();
    private final IntWritable count = new IntWritable();

    @Override
    protected void reduce(Point p, Iterable<IntWritable> ones, Context context) throws IOException, InterruptedException {
      int n = 0;
      for (IntWritable one : ones) {
        n += one.get();
      }
      name.set(p.x + "," + p.y);
      count.set(n);
      context.write(name, count);
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    getConf().setStrings("io.serializations", PointSerialization.class.getName(), WritableSerialization.class.getName());
    Job job = Job.getInstance(getConf(), "points with a serialization of the job's own");
    job.setJarByClass(CustomSerializationCount.class);
    job.setMapperClass(PointMapper.class);
    job.setReducerClass(PointCounter.class);
    job.setSortComparatorClass(PointComparator.class);
    job.setMapOutputKeyClass(Point.class);
    job.setMapOutputValueClass(IntWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    FileInputFormat.addInputPath(job, new Path(args[0]));
    FileOutputFormat.setOutputPath(job, new Path(args[1]));
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new CustomSerializationCount(), args));
  }
}
