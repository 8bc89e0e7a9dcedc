package io.vivace.workloads.kmeans;

import io.vivace.workloads.BadRecords;
import io.vivace.workloads.PartFiles;
import io.vivace.workloads.TextJobs;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * K-means (Lloyd's algorithm) over {@link Points}, one MapReduce job per iteration: the maps
 * assign each point to its nearest centroid and sum the points per centroid (with a combiner), the
 * one reduce divides. It starts from the first {@code K} points of the first input file and stops
 * after {@code -iterations} jobs or once no centroid moved more than {@code -converge-dist}.
 * Iteration {@code i} writes its centroids ({@code index TAB coordinates}) to {@code
 * OUT/iteration-i}; a centroid no point chose keeps its place.
 *
 * <pre>kmeans [-k K (10)] [-iterations N (5)] [-converge-dist D (0.5)] IN OUT</pre>
 */
public class KMeans extends Configured implements Tool {

  public static final String CENTROIDS = "vivace.kmeans.centroids";
  static final String USAGE = "usage: kmeans [-k K (10)] [-iterations N (5)]"
      + " [-converge-dist D (0.5)] IN OUT";

  /** The centroids after the last iteration, how many iterations ran and the last movement. */
  public record Result(List<double[]> centroids, int iterations, double movement) {}

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new KMeans(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    int k = 10;
    int iterations = 5;
    double convergeDist = 0.5;
    int i = 0;
    try {
      for (; i < args.length - 2 && args[i].startsWith("-"); i += 2) {
        switch (args[i]) {
          case "-k" -> k = Integer.parseInt(args[i + 1]);
          case "-iterations" -> iterations = Integer.parseInt(args[i + 1]);
          case "-converge-dist" -> convergeDist = Double.parseDouble(args[i + 1]);
          default -> throw new IllegalArgumentException("unknown option " + args[i]);
        }
      }
      if (args.length - i != 2 || k < 1 || iterations < 1 || convergeDist < 0) {
        throw new IllegalArgumentException("expected IN OUT, k and iterations at least 1");
      }
    } catch (IllegalArgumentException e) {
      System.err.println("kmeans: " + e.getMessage() + "; " + USAGE);
      return 2;
    }
    Result result;
    try {
      result = cluster(new Path(args[i]), new Path(args[i + 1]), k, iterations, convergeDist);
    } catch (IOException e) {
      System.err.println("kmeans: " + e.getMessage());
      return 1;
    }
    System.out.println("kmeans: " + result.iterations() + " iterations, last movement "
        + result.movement());
    return 0;
  }

  /** Runs the iterations; throws when a job fails or the input has fewer than k points. */
  public Result cluster(Path in, Path out, int k, int iterations, double convergeDist)
      throws IOException, InterruptedException, ClassNotFoundException {
    List<double[]> centroids = initialCentroids(in.getFileSystem(getConf()), in, k);
    double movement = Double.MAX_VALUE;
    int done = 0;
    while (done < iterations && movement > convergeDist) {
      Path output = new Path(out, "iteration-" + done);
      Job job = createJob(in, output, centroids);
      if (!job.waitForCompletion(true)) {
        throw new IOException("kmeans iteration " + done + " failed: "
            + job.getStatus().getFailureInfo());
      }
      List<double[]> next = readCentroids(output.getFileSystem(getConf()), output, centroids);
      movement = KMeansReference.movement(centroids, next);
      centroids = next;
      done++;
    }
    return new Result(centroids, done, movement);
  }

  public Job createJob(Path in, Path out, List<double[]> centroids) throws IOException {
    Job job = TextJobs.create(getConf(), "kmeans", KMeans.class, in, out);
    Configuration conf = job.getConfiguration();
    conf.set(CENTROIDS, Points.encode(centroids));
    conf.setInt(KMeansGen.DIMS, centroids.get(0).length);
    job.setMapperClass(AssignMapper.class);
    job.setCombinerClass(SumCombiner.class);
    job.setReducerClass(MeanReducer.class);
    job.setNumReduceTasks(1);
    job.setMapOutputKeyClass(IntWritable.class);
    job.setMapOutputValueClass(PointSum.class);
    job.setOutputKeyClass(IntWritable.class);
    job.setOutputValueClass(Text.class);
    return job;
  }

  /**
   * What a finished run left under {@code out}: its iterations' centroids applied in order to the
   * initial ones of {@code in}.
   */
  public static Result finished(FileSystem fs, Path in, Path out, int k) throws IOException {
    List<double[]> centroids = initialCentroids(fs, in, k);
    double movement = 0;
    int done = 0;
    for (; fs.exists(new Path(out, "iteration-" + done)); done++) {
      List<double[]> next = readCentroids(fs, new Path(out, "iteration-" + done), centroids);
      movement = KMeansReference.movement(centroids, next);
      centroids = next;
    }
    return new Result(centroids, done, movement);
  }

  /** The first {@code k} well-formed points of the input's first data file(s), in name order. */
  public static List<double[]> initialCentroids(FileSystem fs, Path in, int k) throws IOException {
    List<double[]> centroids = new ArrayList<>();
    int dims = -1;
    for (Path file : PartFiles.of(fs, in)) {
      try (BufferedReader reader = new BufferedReader(
          new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
        for (String line; centroids.size() < k && (line = reader.readLine()) != null; ) {
          if (dims < 0) {
            dims = line.trim().split(" +").length;
          }
          double[] point = Points.parse(line, dims);
          if (point != null) {
            centroids.add(point);
          }
        }
      }
      if (centroids.size() == k) {
        return centroids;
      }
    }
    throw new IOException(in + " holds " + centroids.size() + " points, fewer than k = " + k);
  }

  /** The centroids a job wrote; a centroid it did not write keeps its {@code previous} place. */
  static List<double[]> readCentroids(FileSystem fs, Path dir, List<double[]> previous)
      throws IOException {
    List<double[]> centroids = new ArrayList<>(previous);
    for (Path file : PartFiles.of(fs, dir)) {
      try (BufferedReader reader = new BufferedReader(
          new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
        for (String line; (line = reader.readLine()) != null; ) {
          String[] fields = line.split("\t");
          centroids.set(Integer.parseInt(fields[0]),
              Points.parse(fields[1], previous.get(0).length));
        }
      }
    }
    return centroids;
  }

  /** Each point to its nearest centroid, as a sum of one. */
  public static class AssignMapper extends Mapper<LongWritable, Text, IntWritable, PointSum> {
    private BadRecords badRecords;
    private List<double[]> centroids;
    private int dims;
    private final IntWritable nearest = new IntWritable();
    private final PointSum one = new PointSum();

    @Override
    protected void setup(Context context) {
      Configuration conf = context.getConfiguration();
      badRecords = BadRecords.of(conf);
      dims = conf.getInt(KMeansGen.DIMS, 0);
      centroids = Points.decode(conf.get(CENTROIDS), dims);
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      double[] point = Points.parse(line.toString(), dims);
      if (point == null) {
        badRecords.malformed(context, ((FileSplit) context.getInputSplit()).getPath() + " offset "
            + offset, "not " + dims + " space-separated numbers");
        return;
      }
      nearest.set(Points.nearest(point, centroids));
      one.set(1, point);
      context.write(nearest, one);
    }
  }

  /** Sums the partial sums of a centroid. */
  public static class SumCombiner extends Reducer<IntWritable, PointSum, IntWritable, PointSum> {
    private final PointSum total = new PointSum();

    @Override
    protected void reduce(IntWritable centroid, Iterable<PointSum> sums, Context context)
        throws IOException, InterruptedException {
      context.write(centroid, total.sumOf(sums));
    }
  }

  /** The new centroid: the mean of the points assigned to it. */
  public static class MeanReducer extends Reducer<IntWritable, PointSum, IntWritable, Text> {
    private final PointSum total = new PointSum();

    @Override
    protected void reduce(IntWritable centroid, Iterable<PointSum> sums, Context context)
        throws IOException, InterruptedException {
      context.write(centroid, new Text(Points.format(total.sumOf(sums).mean())));
    }
  }
}
