package io.vivace.workloads.kmeans;

import io.vivace.workloads.gen.GeneratorJob;
import io.vivace.workloads.gen.RowRange;
import java.io.IOException;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Writes K-means input ({@link Points}) as a map-only job, HiBench-like: {@code SAMPLES} points of
 * {@value #DIMS} dimensions around {@value #CLUSTERS} Gaussian clusters, one file per map. {@code
 * -profile} takes samples, dimensions and clusters from a {@link KMeansProfile} (SAMPLES then
 * optional). The same seed, sizes and map count give the same bytes.
 *
 * <pre>kmeansgen [-D vivace.kmeans.dims=D] [-D vivace.kmeans.clusters=C] [-profile NAME]
 *     [-maps N] [-seed S] [SAMPLES] OUT</pre>
 */
public class KMeansGen extends Configured implements Tool {

  public static final String DIMS = "vivace.kmeans.dims";
  public static final String CLUSTERS = "vivace.kmeans.clusters";
  static final String USAGE = "usage: kmeansgen [-D " + DIMS + "=D] [-D " + CLUSTERS + "=C]"
      + " [-profile tiny|small|large|huge] [-maps N] [-seed S] [SAMPLES] OUT";

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new KMeansGen(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    String[] resolved = args;
    try {
      GeneratorJob.Profiled profiled = GeneratorJob.Profiled.of(args);
      if (profiled.name() != null) {
        KMeansProfile profile = KMeansProfile.of(profiled.name());
        resolved = profiled.withAmount(profile.samples);
        getConf().setInt(DIMS, profile.dims);
        getConf().setInt(CLUSTERS, profile.clusters);
      }
    } catch (IllegalArgumentException e) {
      System.err.println("kmeansgen: " + e.getMessage() + "; " + USAGE);
      return 2;
    }
    return GeneratorJob.run(getConf(), "kmeansgen", USAGE, resolved, PointMapper.class);
  }

  /** Writes the split's share of the points. */
  public static class PointMapper extends Mapper<IntWritable, NullWritable, Text, NullWritable> {
    @Override
    protected void map(IntWritable split, NullWritable ignored, Context context)
        throws IOException, InterruptedException {
      Configuration conf = context.getConfiguration();
      RowRange range = GeneratorJob.share(conf, split.get());
      double[][] centres = Points.centres(conf.getLong(GeneratorJob.SEED, 0),
          conf.getInt(CLUSTERS, 5), conf.getInt(DIMS, 3));
      SplittableRandom random = GeneratorJob.random(conf, split.get());
      Text line = new Text();
      for (long n = 0; n < range.count(); n++) {
        line.set(Points.next(random, centres));
        context.write(line, NullWritable.get());
      }
    }
  }
}
