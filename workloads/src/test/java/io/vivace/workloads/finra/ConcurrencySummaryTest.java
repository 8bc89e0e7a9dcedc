package io.vivace.workloads.finra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The concurrency runner's arithmetic. */
class ConcurrencySummaryTest {

  @Test
  void thinkTimeIsTheFractionOfTheIsolatedTimeRounded() {
    assertEquals(250, ConcurrencySummary.thinkMs(2500, 0.10));
    assertEquals(0, ConcurrencySummary.thinkMs(2500, 0));
    assertEquals(1, ConcurrencySummary.thinkMs(5, 0.1), "0.5 ms rounds up");
  }

  @Test
  void theMeanIsOverEveryQueryOfEveryStreamAndTheRatioOverTheIsolatedTime() {
    // The study's figures: 2.5 s alone, 4.5 s on average five at a time.
    ConcurrencySummary summary = new ConcurrencySummary(List.of(6000L, 2500L, 2400L), 0.1, List.of(
        List.of(4000L, 5000L), List.of(4500L), List.of(4200L, 4800L, 4500L), List.of(4500L),
        List.of(4500L)));

    assertEquals(2500.0, summary.isolatedMs(), 1e-9, "the median: the cold first run is not it");
    assertEquals(8, summary.queries());
    assertEquals(4500.0, summary.meanConcurrentMs(), 1e-9);
    assertEquals(1.8, summary.ratio(), 1e-9);
    Map<String, Object> figures = summary.figures();
    assertEquals(5, figures.get("streams"));
    assertEquals(2.5, figures.get("isolated_s"));
    assertEquals(List.of(6.0, 2.5, 2.4), figures.get("isolated_runs_s"));
    assertEquals(4.5, figures.get("concurrent_mean_s"));
    assertEquals(0.25, figures.get("think_s"));
    assertEquals(List.of(4.0, 5.0), ((List<?>) figures.get("query_s")).get(0));
  }

  @Test
  void aStreamWithoutQueriesLeavesTheMeanUndefinedAndBadInputIsRejected() {
    assertTrue(Double.isNaN(
        new ConcurrencySummary(List.of(100L), 0.1, List.of(List.of())).ratio()));
    assertEquals(150.0, ConcurrencySummary.median(List.of(200L, 100L)), 1e-9);
    assertThrows(IllegalArgumentException.class,
        () -> new ConcurrencySummary(List.of(), 0.1, List.of()));
    assertThrows(IllegalArgumentException.class,
        () -> new ConcurrencySummary(List.of(0L), 0.1, List.of()));
    assertThrows(IllegalArgumentException.class,
        () -> new ConcurrencySummary(List.of(10L), -0.1, List.of()));
  }
}
