package io.vivace.workloads.pagerank;

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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** PageRank: generator, iterations on Vivace and Apache's LocalJobRunner, against the reference. */
class PageRankTest {

  @TempDir
  Path tmp;

  @Test
  void generatesEveryPageOnceWithZipfLinksTheSameForTheSameSeed() throws Exception {
    Configuration conf = TestJobs.conf("vivace", tmp);
    for (String run : List.of("a", "b")) {
      assertEquals(0, TestJobs.run(conf, new PageRankGen(), "-maps", "3", "-seed", "4", "2000",
          tmp.resolve(run).toString()));
    }
    assertEquals(0, TestJobs.run(conf, new PageRankGen(), "-maps", "3", "-seed", "5", "2000",
        tmp.resolve("other").toString()));
    List<String> lines = TestJobs.lines(tmp.resolve("a"));
    assertEquals(TestJobs.lines(tmp.resolve("b")), lines);
    assertNotEquals(TestJobs.lines(tmp.resolve("other")), lines);
    assertEquals(2000, lines.size());
    int[] inLinks = new int[2000];
    for (int p = 0; p < lines.size(); p++) {
      PageLine page = PageLine.parse(lines.get(p), 0);
      assertNotNull(page, lines.get(p));
      assertEquals(p, page.page(), "pages in order, each once");
      for (long target : page.links()) {
        assertNotEquals(p, target, "no self-link: " + lines.get(p));
        inLinks[(int) target]++;
      }
    }
    assertTrue(inLinks[0] > 10 * inLinks[1000] + 10, "skewed: page 0 " + inLinks[0]
        + " in-links, page 1000 " + inLinks[1000]);
    assertEquals(0, TestJobs.run(conf, new PageRankGen(), "-profile", "tiny",
        tmp.resolve("tiny").toString()));
    assertEquals(PageRankProfile.TINY.pages, TestJobs.lines(tmp.resolve("tiny")).size());
  }

  @Tag("slow")
  @ParameterizedTest
  @ValueSource(strings = {"vivace", "local"})
  void iteratesToTheRanksOfASingleProcessPageRank(String framework) throws Exception {
    Configuration conf = TestJobs.conf(framework, tmp);
    Path in = tmp.resolve("in");
    assertEquals(0, TestJobs.run(conf, new PageRankGen(), "-maps", "2", "-seed", "1", "300",
        in.toString()));
    PageRank pageRank = new PageRank();
    pageRank.setConf(conf);

    PageRank.Result result = pageRank.rank(new org.apache.hadoop.fs.Path(in.toUri()),
        new org.apache.hadoop.fs.Path(tmp.resolve("out").toUri()), 300, 3, 0.85, 0, 2);

    List<PageLine> pages = new ArrayList<>();
    for (String line : TestJobs.lines(in)) {
      pages.add(PageLine.parse(line, 1.0 / 300));
    }
    double[] expected = PageRankReference.rank(pages, 300, 3, 0.85, 0);
    assertEquals(3, result.iterations());
    List<String> ranked = TestJobs.lines(tmp.resolve("out/iteration-2"));
    assertEquals(300, ranked.size());
    double total = 0;
    for (String line : ranked) {
      PageLine page = PageLine.parse(line, 0);
      assertEquals(expected[(int) page.page()], page.rank(), 1e-12, line);
      total += page.rank();
    }
    assertEquals(1.0, total, 1e-9, "no dangling pages: the ranks sum to 1");
  }

  @Test
  void stopsOnceTheRanksChangeLessThanTheTolerance() throws Exception {
    Configuration conf = TestJobs.conf("vivace", tmp);
    Path in = Files.createDirectories(tmp.resolve("in"));
    // Two pages linking to each other: the ranks start at their fixed point, 0.5 each.
    Files.writeString(in.resolve("part-m-00000"), "0\t1\n1\t0\n");
    PageRank pageRank = new PageRank();
    pageRank.setConf(conf);
    PageRank.Result result = pageRank.rank(new org.apache.hadoop.fs.Path(in.toUri()),
        new org.apache.hadoop.fs.Path(tmp.resolve("out").toUri()), 2, 10, 0.85, 1e-6, 1);
    assertEquals(1, result.iterations(), result.toString());
    assertEquals(List.of("0\t0.5\t1", "1\t0.5\t0"), TestJobs.lines(tmp.resolve("out/iteration-0")));
  }

  @Test
  void malformedLinesFailByDefaultAndAreSkippedWhenAskedTo() throws Exception {
    Configuration conf = TestJobs.conf("vivace", tmp);
    Path in = Files.createDirectories(tmp.resolve("in"));
    Files.writeString(in.resolve("part-m-00000"), "0\t1\n1\t0\nthree\tx\n");
    assertEquals(1, TestJobs.run(conf, new PageRank(), "-pages", "2", "-iterations", "1",
        in.toString(), tmp.resolve("failed").toString()));
    conf.set(BadRecords.KEY, "skip");
    assertEquals(0, TestJobs.run(conf, new PageRank(), "-pages", "2", "-iterations", "1",
        in.toString(), tmp.resolve("skipped").toString()));
    assertEquals(2, TestJobs.lines(tmp.resolve("skipped/iteration-0")).size());
    assertEquals(2, TestJobs.run(conf, new PageRank(), "-iterations", "1", "a", "b"),
        "-pages is required");
  }
}
