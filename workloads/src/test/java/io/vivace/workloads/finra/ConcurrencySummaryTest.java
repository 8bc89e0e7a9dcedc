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
    ConcurrencySummary summary = new ConcurrencySummary(2500, 0.1, List.of(
        List.of(4000L, 5000L), List.of(4500L), List.of(4200L, 4800L, 4500L), List.of(4500L),
        List.of(4500L)));

    assertEquals(8, summary.queries());
    assertEquals(4500.0, summary.meanConcurrentMs(), 1e-9);
    assertEquals(1.8, summary.ratio(), 1e-9);
    Map<String, Object> figures = summary.figures();
    assertEquals(5, figures.get("streams"));
    assertEquals(2.5, figures.get("isolated_s"));
    assertEquals(4.5, figures.get("concurrent_mean_s"));
    assertEquals(0.25, figures.get("think_s"));
    assertEquals(List.of(4.0, 5.0), ((List<?>) figures.get("query_s")).get(0));
  }

  @Test
  void aStreamWithoutQueriesLeavesTheMeanUndefinedAndBadInputIsRejected() {
    assertTrue(Double.isNaN(new ConcurrencySummary(100, 0.1, List.of(List.of())).ratio()));
    assertThrows(IllegalArgumentException.class, () -> new ConcurrencySummary(0, 0.1, List.of()));
    assertThrows(IllegalArgumentException.class,
        () -> new ConcurrencySummary(10, -0.1, List.of()));
  }
}
