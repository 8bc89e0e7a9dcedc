package io.vivace.workloads.kmeans;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.workloads.BadRecords;
import io.vivace.workloads.TestJobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** K-means: generator, iterations on Vivace and Apache's LocalJobRunner, against the reference. */
class KMeansTest {

  @TempDir
  Path tmp;

  private Configuration conf(String framework) throws Exception {
    Configuration conf = TestJobs.conf(framework, tmp);
    conf.setInt(KMeansGen.DIMS, 3);
    conf.setInt(KMeansGen.CLUSTERS, 4);
    return conf;
  }

  @Test
  void generatesTheSamePointsFromTheSameSeedAndTheRequestedCount() throws Exception {
    Configuration conf = conf("vivace");
    for (String run : List.of("a", "b")) {
      assertEquals(0, TestJobs.run(conf, new KMeansGen(), "-maps", "3", "-seed", "2", "1000",
          tmp.resolve(run).toString()));
    }
    assertEquals(0, TestJobs.run(conf, new KMeansGen(), "-maps", "3", "-seed", "3", "1000",
        tmp.resolve("other").toString()));
    List<String> points = TestJobs.lines(tmp.resolve("a"));
    assertEquals(1000, points.size());
    assertEquals(3, TestJobs.dataFiles(tmp.resolve("a")).size());
    assertEquals(TestJobs.lines(tmp.resolve("b")), points);
    assertNotEquals(TestJobs.lines(tmp.resolve("other")), points);
    for (String point : points) {
      assertNotNull(Points.parse(point, 3), point);
    }
    assertEquals(0, TestJobs.run(new Configuration(conf), new KMeansGen(), "-profile", "tiny",
        "-maps", "2", tmp.resolve("tiny").toString()));
    List<String> tiny = TestJobs.lines(tmp.resolve("tiny"));
    assertEquals(KMeansProfile.TINY.samples, tiny.size());
    assertNotNull(Points.parse(tiny.get(0), KMeansProfile.TINY.dims));
  }

  @Tag("slow")
  @ParameterizedTest
  @ValueSource(strings = {"vivace", "local"})
  void iteratesToTheCentroidsOfASingleProcessKMeans(String framework) throws Exception {
    Configuration conf = conf(framework);
    Path in = tmp.resolve("in");
    assertEquals(0, TestJobs.run(conf, new KMeansGen(), "-maps", "2", "-seed", "1", "3000",
        in.toString()));
    KMeans kmeans = new KMeans();
    kmeans.setConf(conf);

    KMeans.Result result = kmeans.cluster(new org.apache.hadoop.fs.Path(in.toUri()),
        new org.apache.hadoop.fs.Path(tmp.resolve("out").toUri()), 6, 3, 0.0);

    List<double[]> points = new ArrayList<>();
    for (String line : TestJobs.lines(in)) {
      points.add(Points.parse(line, 3));
    }
    List<double[]> initial = KMeans.initialCentroids(FileSystem.getLocal(conf),
        new org.apache.hadoop.fs.Path(in.toUri()), 6);
    KMeans.Result expected = KMeansReference.cluster(points, initial, 3, 0.0);
    assertEquals(3, result.iterations());
    assertEquals(expected.iterations(), result.iterations());
    for (int c = 0; c < 6; c++) {
      assertArrayEquals(expected.centroids().get(c), result.centroids().get(c), 1e-9,
          "centroid " + c);
    }
    assertTrue(Files.isDirectory(tmp.resolve("out/iteration-2")), "one job per iteration");
  }

  @Tag("slow")
  @Test
  void stopsOnceNoCentroidMovesMoreThanTheConvergeDistance() throws Exception {
    Path in = Files.createDirectories(tmp.resolve("in"));
    // Two tight blobs, the first two points one in each: the first iteration moves each centroid
    // by about 0.1 and the second by nothing.
    Files.writeString(in.resolve("part-m-00000"),
        "0 0 0\n10 10 10\n0.2 0 0\n10 10.2 10\n0 0.1 0\n10 10 10.1\n");
    Configuration conf = conf("vivace");
    KMeans kmeans = new KMeans();
    kmeans.setConf(conf);
    KMeans.Result first = kmeans.cluster(new org.apache.hadoop.fs.Path(in.toUri()),
        new org.apache.hadoop.fs.Path(tmp.resolve("out").toUri()), 2, 10, 0.5);
    KMeans.Result second = kmeans.cluster(new org.apache.hadoop.fs.Path(in.toUri()),
        new org.apache.hadoop.fs.Path(tmp.resolve("out2").toUri()), 2, 10, 0.01);
    assertEquals(1, first.iterations(), first.toString());
    assertEquals(2, second.iterations(), second.toString());
    assertEquals(0, second.movement(), 1e-12);
    assertArrayEquals(new double[] {0.2 / 3, 0.1 / 3, 0}, second.centroids().get(0), 1e-12);
  }

  @Test
  void malformedPointsFailByDefaultAndAreSkippedWhenAskedTo() throws Exception {
    Path in = Files.createDirectories(tmp.resolve("in"));
    Files.writeString(in.resolve("part-m-00000"), "1 1 1\n2 2 2\n1 x 1\n9 9 9\n");
    Configuration conf = conf("vivace");
    KMeans kmeans = new KMeans();
    kmeans.setConf(conf);
    assertEquals(1, TestJobs.run(conf, new KMeans(), "-k", "2", "-iterations", "1", in.toString(),
        tmp.resolve("failed").toString()), "the bad point fails the job");
    conf.set(BadRecords.KEY, "skip");
    KMeans.Result result = kmeans.cluster(new org.apache.hadoop.fs.Path(in.toUri()),
        new org.apache.hadoop.fs.Path(tmp.resolve("skipped").toUri()), 2, 1, 0);
    assertArrayEquals(new double[] {1, 1, 1}, result.centroids().get(0), 1e-12);
    assertArrayEquals(new double[] {5.5, 5.5, 5.5}, result.centroids().get(1), 1e-12);
  }
}
