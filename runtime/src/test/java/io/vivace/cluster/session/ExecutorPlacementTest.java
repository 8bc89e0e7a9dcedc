package io.vivace.cluster.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The hosts the session's next executors are asked for on ({@link ExecutorPlacement}): hosts of the
 * waiting maps' input without an executor, one container each, first where the most maps have no
 * executor on any of their hosts.
 */
class ExecutorPlacementTest {

  private static final String H1 = "h1.example";
  private static final String H2 = "h2.example";
  private static final String H3 = "h3.example";

  @Test
  void aHostWhoseMapsAnExecutorHasLocallyAlreadyComesAfterOneWhoseMapsHaveNone() {
    List<String[]> maps = List.of(new String[] {H1, H2}, new String[] {H1, H2}, new String[] {H3});
    assertEquals(List.of(H3), ExecutorPlacement.hostsFor(1, maps, List.of(H1)),
        "the map on " + H3 + " has no executor near it; those on " + H2 + " have one on " + H1);
    assertEquals(List.of(H3, H2), ExecutorPlacement.hostsFor(3, maps, List.of(H1)), "one container a host, no more");
  }

  @Test
  void hostsAreOnesWithoutAnExecutorOrARequestWhateverTheCaseOfTheirNames() {
    List<String[]> maps = List.of(new String[] {H1.toUpperCase()}, new String[] {H2}, new String[] {H2, H3});
    assertEquals(List.of(H3), ExecutorPlacement.hostsFor(2, maps, List.of(H1, "H2.EXAMPLE")));
    assertEquals(List.of(), ExecutorPlacement.hostsFor(2, List.<String[]>of(new String[0]), List.of()), "input anywhere: no host");
  }
}
