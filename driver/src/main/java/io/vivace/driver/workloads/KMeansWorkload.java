package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import io.vivace.driver.InputData;
import io.vivace.driver.Param;
import io.vivace.driver.Params;
import io.vivace.driver.Phase;
import io.vivace.driver.Validation;
import io.vivace.driver.WorkloadContext;
import io.vivace.workloads.kmeans.KMeans;
import io.vivace.workloads.kmeans.KMeansProfile;
import io.vivace.workloads.kmeans.KMeansReference;
import io.vivace.workloads.kmeans.Points;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * K-means ({@link KMeans}: one job per iteration) on KMeansGen's points; defaults are HiBench's
 * tiny profile. Validated against {@link KMeansReference} (every centroid within 1e-6) when there
 * are at most {@value #REFERENCE_POINTS} points, else by the number of centroids. {@code
 * results.kmeans} holds the iterations run and the last movement.
 */
final class KMeansWorkload extends ParamsWorkload {

  static final String NAME = "kmeans";
  static final long REFERENCE_POINTS = 200_000;
  private static final KMeansProfile TINY = KMeansProfile.TINY;
  static final String DESCRIPTION = "K-means, one job per iteration, on points around Gaussian"
      + " clusters; checked against a single-process K-means up to 200,000 points";
  // HiBench's profiles: small is samples=3000000 dims=20, large samples=20000000 dims=20, huge
  // samples=100000000 dims=20 (clusters 5, k 10, 5 iterations in all of them).
  static final List<Param> PARAMS = List.of(
      Param.integer("samples", TINY.samples, 1, "points", "points to generate"),
      Param.integer("dims", TINY.dims, 1, "", "dimensions of a point"),
      Param.integer("clusters", TINY.clusters, 1, "",
          "Gaussian clusters the points are drawn around"),
      Param.integer("k", TINY.k, 1, "", "centroids"),
      Param.integer("iterations", TINY.iterations, 1, "", "iterations (jobs) at most"),
      Param.integer("converge_milli", 500, 0, "1/1000",
          "stop once no centroid moves more (1/1000 units)"),
      SharedParams.maps(), SharedParams.seed());

  private Path output;

  KMeansWorkload(Params params) {
    super(NAME, params);
  }

  @Override
  public InputData input() {
    return new KMeansInput(params.get("samples"), params.get("dims"), params.get("clusters"),
        params.get("maps"), params.get("seed"));
  }

  @Override
  public void run(WorkloadContext ctx) throws Exception {
    output = ctx.workPath("kmeans-out");
    ctx.runTool(Phase.RUN, "kmeans", new KMeans(), Map.of(), "-k", k(), "-iterations",
        Long.toString(params.get("iterations")), "-converge-dist", convergeDist(),
        ctx.data().path().toString(), output.toString());
    KMeans.Result result = finished(ctx);
    Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("iterations", result.iterations());
    figures.put("movement", result.movement());
    ctx.putResult("kmeans", figures);
  }

  @Override
  public Validation validate(WorkloadContext ctx) throws Exception {
    FileSystem fs = output.getFileSystem(ctx.conf());
    KMeans.Result result = finished(ctx);
    long outputBytes =
        DataFiles.bytes(fs, new Path(output, "iteration-" + (result.iterations() - 1)));
    int k = Integer.parseInt(k());
    if (result.iterations() < 1 || result.centroids().size() != k) {
      return Validation.failed("kmeans: " + result.iterations() + " iterations, "
          + result.centroids().size() + " centroids", null, outputBytes);
    }
    if (params.get("samples") > REFERENCE_POINTS) {
      return Validation.passed("kmeans: " + k + " centroids after " + result.iterations()
          + " iterations (no reference above " + REFERENCE_POINTS + " points)", null, outputBytes);
    }
    Path in = ctx.data().path();
    KMeans.Result expected = KMeansReference.cluster(points(in.getFileSystem(ctx.conf()), in),
        KMeans.initialCentroids(in.getFileSystem(ctx.conf()), in, k),
        (int) params.get("iterations"), Double.parseDouble(convergeDist()));
    for (int c = 0; c < k; c++) {
      double[] want = expected.centroids().get(c);
      double[] got = result.centroids().get(c);
      for (int d = 0; d < want.length; d++) {
        if (Math.abs(want[d] - got[d]) > 1e-6 || expected.iterations() != result.iterations()) {
          return Validation.failed("kmeans: centroid " + c + " is " + Points.format(got)
              + " after " + result.iterations() + " iterations, the single-process reference's "
              + Points.format(want) + " after " + expected.iterations(), null, outputBytes);
        }
      }
    }
    return Validation.passed("kmeans: the " + k + " centroids of the single-process reference"
        + " after " + result.iterations() + " iterations, within 1e-6", null, outputBytes);
  }

  private KMeans.Result finished(WorkloadContext ctx) throws Exception {
    Path in = ctx.data().path();
    return KMeans.finished(output.getFileSystem(ctx.conf()), in, output, Integer.parseInt(k()));
  }

  private String k() {
    return Long.toString(params.get("k"));
  }

  private String convergeDist() {
    return Double.toString(params.get("converge_milli") / 1000.0);
  }

  private List<double[]> points(FileSystem fs, Path in) throws Exception {
    List<double[]> points = new ArrayList<>();
    for (String line : TextParts.lines(fs, in)) {
      double[] point = Points.parse(line, params.intValue("dims"));
      if (point != null) {
        points.add(point);
      }
    }
    return points;
  }
}
