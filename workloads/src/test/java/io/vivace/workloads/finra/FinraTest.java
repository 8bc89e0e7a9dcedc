package io.vivace.workloads.finra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.workloads.BadRecords;
import io.vivace.workloads.TestJobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The audit-trail generator, query and concurrency runner on Vivace and Apache's LocalJobRunner. */
class FinraTest {

  /** 14:30 to 18:30 UTC of the generated day, as ISO instants: most of it, not all. */
  private static final String FROM = "2016-03-01T15:00:00Z";
  private static final String TO = "2016-03-01T19:00:00Z";

  @TempDir
  Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"vivace", "local"})
  void generatesTheSameRowsFromTheSameSeedWithinOnePercentOfTheSize(String framework)
      throws Exception {
    Configuration conf = TestJobs.conf(framework, tmp);
    long bytes = 400_000;
    for (String run : List.of("a", "b")) {
      assertEquals(0, TestJobs.run(conf, new FinraGen(), "-maps", "3", "-seed", "5",
          Long.toString(bytes), tmp.resolve(run).toString()));
    }
    assertEquals(0, TestJobs.run(conf, new FinraGen(), "-maps", "3", "-seed", "6",
        Long.toString(bytes), tmp.resolve("other-seed").toString()));

    assertEquals(3, TestJobs.dataFiles(tmp.resolve("a")).size(), "one file per map");
    long written = TestJobs.bytes(tmp.resolve("a"));
    assertTrue(written >= bytes && written <= bytes + bytes / 100, written + " for " + bytes);
    List<String> rows = TestJobs.lines(tmp.resolve("a"));
    assertEquals(TestJobs.lines(tmp.resolve("b")), rows, "same seed, same rows");
    assertNotEquals(TestJobs.lines(tmp.resolve("other-seed")), rows, "another seed, other rows");

    Map<String, Integer> bySymbol = new HashMap<>();
    Set<String> ids = new HashSet<>();
    for (String row : rows) {
      assertEquals(OrderRow.COLUMNS, row.split("\\|", -1).length, row);
      OrderRow.Selected selected = OrderRow.parse(row);
      assertNotNull(selected, row);
      assertTrue(selected.receivedMs() >= OrderRow.DAY_START_MS
          && selected.receivedMs() < OrderRow.DAY_START_MS + OrderRow.DAY_MS, row);
      assertTrue(ids.add(selected.orderId()), "order ids are unique: " + row);
      bySymbol.merge(selected.symbol(), 1, Integer::sum);
    }
    int most = bySymbol.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
    double xlp = bySymbol.getOrDefault(Symbols.STUDY_SYMBOL, 0) / (double) rows.size();
    assertTrue(most > rows.size() / 20, "the most popular symbol has over 5% of the rows: " + most);
    assertTrue(xlp > 0.006 && xlp < 0.02, "XLP about 1.2% of the rows: " + xlp);
  }

  @ParameterizedTest
  @ValueSource(strings = {"vivace", "local"})
  void theQueryEqualsASingleProcessFilterSortedByTime(String framework) throws Exception {
    Configuration conf = TestJobs.conf(framework, tmp);
    Path in = tmp.resolve("in");
    assertEquals(0, TestJobs.run(conf, new FinraGen(), "-maps", "2", "-seed", "1", "300000",
        in.toString()));
    FileSystem fs = FileSystem.getLocal(conf);

    for (String symbol : List.of("XLP", "X%", "_L_")) {
      Path out = tmp.resolve("out-" + symbol.replace('%', 'P'));
      assertEquals(0, TestJobs.run(conf, new FinraQuery(), "-symbol", symbol, "-from", FROM,
          "-to", TO, in.toString(), out.toString()));

      List<String> expected = FinraReference.select(fs, new org.apache.hadoop.fs.Path(in.toUri()),
          new QueryFilter(symbol, QueryFilter.time("from", FROM), QueryFilter.time("to", TO)));
      List<String> actual = TestJobs.lines(out);
      assertTrue(expected.size() > 5, symbol + " selects a few rows: " + expected);
      assertEquals(expected, actual, symbol);
      long previous = 0;
      for (String line : actual) {
        long ms = Long.parseLong(line.split("\\|")[2]);
        assertTrue(ms >= previous, "sorted by time: " + line);
        previous = ms;
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"vivace", "local"})
  void malformedRowsFailTheQueryOrAreCountedAndSkipped(String framework) throws Exception {
    Path in = Files.createDirectories(tmp.resolve("in"));
    String row = "XLP|7|1456843000000|F0001|B|100|10.50|LMT|DAY|I|NYSE|NEW";
    Files.writeString(in.resolve("part-m-00000"),
        row + "\nXLP|8|not-a-time|F0001|B|100|10.50|LMT|DAY|I|NYSE|NEW\nXLP|9|1\n");
    Configuration conf = TestJobs.conf(framework, tmp);

    assertNotEquals(0, TestJobs.run(conf, new FinraQuery(), in.toString(),
        tmp.resolve("failed").toString()), "fails by default");

    conf.set(BadRecords.KEY, "skip");
    FinraQuery query = new FinraQuery();
    query.setConf(conf);
    Job job = query.createJob(QueryFilter.study(), new org.apache.hadoop.fs.Path(in.toUri()),
        new org.apache.hadoop.fs.Path(tmp.resolve("skipped").toUri()));
    assertTrue(job.waitForCompletion(false));
    assertEquals(2, job.getCounters().findCounter(BadRecords.GROUP, BadRecords.COUNTER).getValue());
    assertEquals(List.of("XLP|7|1456843000000"), TestJobs.lines(tmp.resolve("skipped")));
  }

  @Test
  void theConcurrencyRunnerRunsEveryStreamsQueriesAndReportsTheirTimes() throws Exception {
    Configuration conf = TestJobs.conf("vivace", tmp);
    Path in = tmp.resolve("in");
    assertEquals(0, TestJobs.run(conf, new FinraGen(), "-maps", "2", "100000", in.toString()));
    Path json = tmp.resolve("report.json");

    assertEquals(0, TestJobs.run(conf, new FinraConcurrency(), "-isolated", "2", "-streams", "3",
        "-queries", "2",
        "-think-pct", "10", "-json", json.toString(), in.toString(),
        tmp.resolve("out").toString()));

    List<String> expected = FinraReference.select(FileSystem.getLocal(conf),
        new org.apache.hadoop.fs.Path(in.toUri()), QueryFilter.study());
    assertEquals(expected, TestJobs.lines(tmp.resolve("out/isolated-0")));
    assertEquals(expected, TestJobs.lines(tmp.resolve("out/isolated-1")));
    for (int stream = 0; stream < 3; stream++) {
      for (int query = 0; query < 2; query++) {
        assertEquals(expected, TestJobs.lines(tmp.resolve("out/s" + stream + "-q" + query)));
      }
    }
    String report = Files.readString(json);
    assertTrue(report.contains("\"streams\" : 3") && report.contains("\"queries\" : 6")
        && report.contains("\"ratio\""), report);
  }

  @Test
  void badArgumentsAreUsageErrors() throws Exception {
    Configuration conf = TestJobs.conf("vivace", tmp);
    assertEquals(2, TestJobs.run(conf, new FinraQuery(), "-from", "yesterday", "in", "out"));
    assertEquals(2, TestJobs.run(conf, new FinraQuery(), "-from", "2000", "-to", "1000", "a", "b"));
    assertEquals(2, TestJobs.run(conf, new FinraConcurrency(), "-streams", "0", "in", "out"));
    assertEquals(2, TestJobs.run(conf, new FinraConcurrency(), "-bogus", "1", "in", "out"));
    assertEquals(2, TestJobs.run(conf, new FinraGen(), "-maps", "x", "10", "out"));
  }
}
